import assert from 'node:assert/strict';
import { stepRunnerLabel } from '../../../../src/core/view/stepRunnerLabel';
import { makeStep } from '../../../support/randomPlans';

describe('stepRunnerLabel', () => {
  it('names the tool, the agent, "you", or the kind in words', () => {
    assert.deepEqual(
      [
        makeStep('a', { kind: 'tool', tool: 'read_file', agent: undefined }),
        makeStep('b', { kind: 'tool', agent: undefined }),
        makeStep('c', { agent: 'coder' }),
        makeStep('d', { agent: undefined }),
        makeStep('e', { kind: 'manual', agent: undefined }),
        makeStep('f', { kind: 'synthesis_gate', agent: undefined }),
        makeStep('g', { kind: 'human_review', agent: undefined }),
      ].map(stepRunnerLabel),
      ['read_file', 'tool', 'agent: coder', 'agent: default', 'you', 'synthesis gate', 'human review'],
    );
  });
});
