import assert from 'node:assert/strict';
import { importTaskFile, maxImportedTasks } from '../../../../src/core/interop/importTaskFile';
import { maxFrontMatterChars, readCursor } from '../../../../src/core/interop/cursorFormat';
import { runPlan } from '../../../../src/core/engine/runPlan';
import { tickSourceCheckbox } from '../../../../src/core/interop/tickSourceCheckbox';
import type { Plan } from '../../../../src/core/plan/planSchema';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';

/** A Cursor plan of `count` todos of one short line each. */
function cursorPlan(count: number): string {
  return `---\nname: Many\ntodos:\n${'  - id: a\n    content: b\n'.repeat(count)}---\n\nBody\n`;
}

describe('task files: hostile files are refused in bounded time (attacks)', () => {
  it('attack: a Cursor plan of 20,000 todos is refused for its number of tasks (its lines were counted from the start for each todo: 95 s)', () => {
    const imported = importTaskFile('many.plan.md', cursorPlan(20_000), { model: false });
    assert.equal(imported.ok, false);
    assert.match(imported.ok ? '' : imported.problems[0]!, /holds 20,000 tasks, more than the 5,000 .*split it/);
  });

  it('attack: a 10 MB Cursor front matter is refused before it is parsed, saying why and what to do', () => {
    const text = cursorPlan(380_000);
    assert.ok(text.length > 9_000_000);
    const imported = importTaskFile('many.plan.md', text, { model: false });
    assert.equal(imported.ok, false);
    assert.match(imported.ok ? '' : imported.problems[0]!, /front matter is [\d,]+ characters long, more than the 1,000,000 read; .*split into smaller plans/);
  });

  it('still reads each todo\'s line right, and a plan of as many todos as a plan takes', () => {
    const text = cursorPlan(maxImportedTasks);
    assert.ok(text.length < maxFrontMatterChars);
    const document = readCursor(text, 'many');
    assert.equal(document.tasks.length, maxImportedTasks);
    assert.deepEqual(document.tasks.slice(0, 3).map((task) => task.line), [4, 6, 8]);
    assert.equal(document.tasks.at(-1)!.line, 4 + 2 * (maxImportedTasks - 1));
  });
});

describe('ticking a task the file holds twice (attacks)', () => {
  const original = ['- [ ] Update deps', '- [ ] Run the tests', '- [ ] Bump version', '- [ ] Run the tests', ''].join('\n');

  /** The plan of `original` with every step free to run at once; the step `failing` fails without stopping the run. */
  function plan(failing: string): Plan {
    const result = importTaskFile('tasks.md', original, { model: true, tick: true });
    assert.ok(result.ok);
    return { ...result.plan, steps: result.plan.steps.map((step) => ({ ...step, dependsOn: [], ...(step.id === failing ? { onFailure: 'skip' as const } : {}) })) };
  }

  async function run(tasks: Plan, text: string, failing: string): Promise<{ text: string; warnings: string[] }> {
    const workspace = createMemoryWorkspace({ 'tasks.md': text });
    const handle = runPlan(tasks, {
      clock: new ManualClock(0, { autoAdvance: true }),
      stepRunner: async (step) => {
        if (step.id === failing) throw new Error('tests failed');
        return 'done';
      },
      stepEpilogue: tickSourceCheckbox,
      interaction: ScriptedInteraction.approvingAll(),
      maxConcurrency: 1,
      workspace,
    });
    const warnings: string[] = [];
    handle.events.subscribe((event) => {
      if (event.type === 'step_warning') warnings.push(`${event.stepId}: ${event.message}`);
    });
    await handle.result;
    return { text: workspace.snapshot()['tasks.md']!, warnings };
  }

  it('attack: two lines added above while the run went on: the second "Run the tests" ticks its own box, never the first (which failed)', async () => {
    const tasks = plan('S2');
    const { text } = await run(tasks, `# Release\n\n${original}`, 'S2');
    assert.deepEqual(text.split('\n'), ['# Release', '', '- [x] Update deps', '- [ ] Run the tests', '- [x] Bump version', '- [x] Run the tests', '']);
  });

  it('attack: the user removed the first "Run the tests": its step ticks nothing, never the second task\'s box (which failed), and says why', async () => {
    const tasks = plan('S4');
    const edited = ['- [ ] Update deps', '- [ ] Bump version', '- [ ] Run the tests', ''].join('\n');
    const { text, warnings } = await run(tasks, edited, 'S4');
    assert.deepEqual(text.split('\n'), ['- [x] Update deps', '- [x] Bump version', '- [ ] Run the tests', '']);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /^S2: .*tasks\.md had 2 checkboxes for the task "Run the tests" and has 1 now \(lines 3\); none was ticked.*Tick it by hand/);
  });

  it('ticks each of the two in place when the file was not edited', async () => {
    const { text, warnings } = await run(plan('none'), original, 'none');
    assert.equal(text, original.replace(/\[ \]/g, '[x]'));
    assert.deepEqual(warnings, []);
  });
});
