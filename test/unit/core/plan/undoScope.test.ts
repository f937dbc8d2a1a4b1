import assert from 'node:assert/strict';
import type { Checkpoint } from '../../../../src/core/runStorePorts';
import { undoScope } from '../../../../src/core/plan/undoScope';
import { makePlan, makeStep } from '../../../support/randomPlans';

const change = (seq: number, stepId: string, path: string): Checkpoint => ({ runId: 'r', stepId, seq, path, operation: 'edit', before: { exists: false }, afterSha256: 'x', state: 'applied' });

describe('undoScope', () => {
  const plan = makePlan([makeStep('A'), makeStep('B', { dependsOn: ['A'] }), makeStep('C'), makeStep('D'), makeStep('E', { dependsOn: ['B'] })]);

  it('takes the step, its dependents (not only direct ones) and the later changers of their files, and nothing else', () => {
    const checkpoints = [change(1, 'C', 'c.txt'), change(2, 'A', 'a.txt'), change(3, 'D', 'a.txt'), change(4, 'C', 'other.txt'), change(5, 'B', 'b.txt')];
    assert.deepEqual([...undoScope(plan, checkpoints, 'A')].sort(), ['A', 'B', 'D', 'E']);
  });

  it('leaves out a step that changed the same file before the first change it undoes', () => {
    const checkpoints = [change(1, 'C', 'shared.txt'), change(2, 'B', 'shared.txt')];
    assert.deepEqual([...undoScope(plan, checkpoints, 'B')].sort(), ['B', 'E']);
  });

  it('follows changes through a step that joined: its later files pull in their later changers', () => {
    const checkpoints = [change(1, 'E', 'e.txt'), change(2, 'C', 'e.txt'), change(3, 'C', 'c.txt'), change(4, 'D', 'c.txt')];
    assert.deepEqual([...undoScope(plan, checkpoints, 'E')].sort(), ['C', 'D', 'E']);
  });
});
