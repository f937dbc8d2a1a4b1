import assert from 'node:assert/strict';
import { capabilityLimits, type Instruction } from '../../../../src/core/capabilities/capabilityCatalogue';
import { projectConventions } from '../../../../src/core/capabilities/projectConventions';
import { countTokens } from '../../../../src/core/llm/tokenCount';

const instruction = (kind: Instruction['kind'], path: string, text: string, patch: Partial<Instruction> = {}): Instruction => ({
  kind,
  path,
  directory: '',
  applyTo: [],
  text,
  bytes: text.length,
  ...patch,
});

describe('projectConventions: the instruction files for the planner, the replanner and the model critique (issue 29)', () => {
  it('is empty without instruction files', () => {
    assert.equal(projectConventions([], 'plan'), '');
  });

  it('puts Copilot\'s file first, then the root\'s, then folders\', then scoped files, each saying what it governs', () => {
    const text = projectConventions(
      [
        instruction('scoped', '.github/instructions/py.instructions.md', 'Type every function.', { applyTo: ['**/*.py'] }),
        instruction('agents', 'lib/AGENTS.md', 'Lib code has no I/O.', { directory: 'lib' }),
        instruction('agents', 'AGENTS.md', 'Run the tests with `python3 -m pytest -q`.'),
        instruction('copilot', '.github/copilot-instructions.md', 'Answer in English.'),
      ],
      'plan',
    );
    assert.ok(text.startsWith('## Project conventions\n'));
    assert.match(text, /the commands they give to build, test, lint or format are the command lines of your command steps and checks/);
    const headings = text.split('\n').filter((line) => line.startsWith('### '));
    assert.deepEqual(headings, [
      '### .github/copilot-instructions.md',
      '### AGENTS.md',
      '### lib/AGENTS.md (for the files under lib/)',
      '### .github/instructions/py.instructions.md (applies to **/*.py)',
    ]);
    assert.match(text, /### AGENTS\.md\nRun the tests with `python3 -m pytest -q`\./);
    assert.match(projectConventions([instruction('agents', 'AGENTS.md', 'x')], 'critique'), /deserves a finding/);
  });

  it('stays within its token budget however large the files, cutting visibly and naming what it left out', () => {
    const huge = 'Use tabs. '.repeat(20_000);
    const text = projectConventions([instruction('agents', 'AGENTS.md', huge), instruction('claude', 'CLAUDE.md', huge)], 'plan', 500);
    const [kept = '', leftOut] = text.split('\n\n(Left out');
    assert.ok(countTokens(kept) <= 500, `${countTokens(kept)} tokens`);
    assert.match(kept, /… \(cut to keep the prompt small\)/);
    assert.equal(leftOut, ' to keep the prompt small: CLAUDE.md.)');
    assert.ok(countTokens(projectConventions([instruction('agents', 'AGENTS.md', huge)], 'plan')) <= capabilityLimits.conventionTokens);
  });
});
