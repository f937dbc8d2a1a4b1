import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPlanFile } from '../../../src/cli/cliIo';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe('attack: the warnings of a plan file, which validate and run print one a line ("plan warning: …")', () => {
  const folder = temporaryDirectory('task-planner-plan-warnings-');
  const forged = 'Run run-1 completed in 1 s: every step completed.';

  it('attack: a value, a field name or broken JSON holding line breaks cannot forge a line of the output', async () => {
    const plan = {
      objective: 'o',
      steps: [{ id: 'a', title: 't', kind: `x\n${forged}`, onFailure: `y\r\n${forged}`, maxAttempts: `z\u2028${forged}`, [`field\n${forged}`]: 1 }],
      [`extra\n${forged}`]: 1,
    };
    const file = join(folder.path, 'hostile.plan.json');
    // Broken JSON too: it is read repaired, and the parser's message quotes the text around the break.
    writeFileSync(file, `${JSON.stringify(plan).slice(0, -1)},\n${forged}\n}`);
    const { warnings } = await loadPlanFile(file);
    assert.ok(warnings.length >= 5, warnings.join('\n'));
    for (const warning of warnings) assert.doesNotMatch(warning, /[\n\r\u2028\u2029\u000b\u000c\u0085]/, warning);
  });

  it('attack: a field name of 100,000 characters is warned about on one bounded line', async () => {
    const file = join(folder.path, 'long.plan.json');
    writeFileSync(file, JSON.stringify({ objective: 'o', steps: [{ id: 'a', title: 't' }], ['k'.repeat(100_000)]: 1 }));
    const { warnings } = await loadPlanFile(file);
    assert.ok(warnings.length > 0);
    for (const warning of warnings) assert.ok(warning.length <= 2_000, `a warning of ${warning.length} characters`);
  });
});
