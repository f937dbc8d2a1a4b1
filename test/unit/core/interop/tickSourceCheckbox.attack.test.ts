import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { RunOptions } from '../../../../src/core/engine/runOptions';
import { exportTaskFile, importTaskFile } from '../../../../src/core/interop/importTaskFile';
import { tickSourceCheckbox } from '../../../../src/core/interop/tickSourceCheckbox';
import { tickTaskLine } from '../../../../src/core/interop/tickTaskLine';
import { readOrigin } from '../../../../src/core/interop/sourceOrigin';
import type { Plan } from '../../../../src/core/plan/planSchema';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';

// Promises under attack: a tick changes the one box of the task that completed and no other byte (BOM, CRLF, a last line
// without a newline, hostile titles); an edit the user makes to the task file while steps tick is never lost; a tick never
// lands in a file outside the workspace, in git's folder or in a credential file; a task file that is not read as the user
// sees it is not run as if it were.

function imported(file: string, text: string): Plan {
  const result = importTaskFile(file, text, { model: true, tick: true });
  assert.ok(result.ok, JSON.stringify(result));
  return result.plan;
}

async function run(plan: Plan, options: Partial<RunOptions> & { workspace: WorkspaceFs }): Promise<{ events: RunEvent[]; status: string }> {
  const handle = runPlan(plan, {
    clock: new ManualClock(0, { autoAdvance: true }),
    stepRunner: async () => 'done',
    stepEpilogue: tickSourceCheckbox,
    interaction: ScriptedInteraction.approvingAll(),
    maxConcurrency: 4,
    ...options,
  });
  const events: RunEvent[] = [];
  handle.events.subscribe((event) => events.push(event));
  const result = await handle.result;
  return { events, status: result.status };
}

const warnings = (events: RunEvent[]): string[] => events.flatMap((event) => (event.type === 'step_warning' ? [`${event.stepId}: ${event.message}`] : []));

/** Positions where `after` differs from `before` (same length). */
function changedAt(before: string, after: string): number[] {
  assert.equal(after.length, before.length);
  const at: number[] = [];
  for (let index = 0; index < before.length; index++) if (before[index] !== after[index]) at.push(index);
  return at;
}

describe('attack: ticking checkboxes in task files', () => {
  it('attack: an edit the user saves to the task file while parallel steps tick is kept, and every tick lands', async () => {
    const text = ['# Tasks', '', '## Phase 1', '- [ ] T001 [P] Add a.ts', '- [ ] T002 [P] Add b.ts', '- [ ] T003 [P] Add c.ts', ''].join('\n');
    const memory = createMemoryWorkspace({ 'tasks.md': text });
    let edited = false;
    const racing: WorkspaceFs = {
      ...memory,
      rootLabel: memory.rootLabel,
      readBytes: async (...args) => {
        await new Promise((resolve) => setImmediate(resolve));
        const read = await memory.readBytes(...args);
        // The user saves a note of theirs right after the first tick read the file, before it writes.
        if (!edited && args[0] === 'tasks.md') {
          edited = true;
          await memory.writeText('tasks.md', `${new TextDecoder().decode(read)}\nA note the user saved.\n`);
        }
        return read;
      },
      writeText: async (...args) => (await new Promise((resolve) => setImmediate(resolve)), memory.writeText(...args)),
    };
    const { status, events } = await run(imported('tasks.md', text), { workspace: racing });
    assert.equal(status, 'completed');
    assert.ok(edited, 'the user\'s edit was made');
    assert.deepEqual(warnings(events), []);
    const now = memory.snapshot()['tasks.md']!;
    assert.match(now, /A note the user saved\./, 'the user\'s edit was overwritten by a tick');
    assert.equal((now.match(/- \[x\]/g) ?? []).length, 3, now);
  });

  it('attack: in a file with a BOM, CRLF endings and no last newline, hostile titles tick exactly their own box and nothing else', () => {
    const lines = [
      '\uFEFF# Tasks',
      '- [ ] T001 Write docs - [ ] T002 fake box in the title',
      '- [ ] T002 a title holding [ ] and - [x] T001 after the key',
      '* [ ] T003 Run `rm -rf /` [x]',
      '  - [ ] T004 Nested \u200bzero-width and \u2028 separator',
      '- [ ] T005 Last line without a newline',
    ];
    const text = lines.join('\r\n');
    const plan = imported('specs/tasks.md', text);
    assert.deepEqual(plan.steps.map((step) => step.id), ['T001', 'T002', 'T003', 'T004', 'T005']);
    let current = text;
    const boxes: number[] = [];
    for (const step of plan.steps) {
      const origin = readOrigin(step.input!).origin!;
      const ticked = tickTaskLine(current, origin, step.title);
      assert.ok(ticked.ok, JSON.stringify(ticked));
      const at = changedAt(current, ticked.text);
      assert.equal(at.length, 1, `${step.id} changed ${at.length} characters`);
      assert.equal(ticked.text[at[0]!], 'x');
      // The box opening the task's own line.
      const lineStart = current.lastIndexOf('\n', at[0]) + 1;
      assert.match(current.slice(lineStart, at[0]! + 2), /^\uFEFF?\s*[-*] \[ \]$/, `${step.id} ticked ${JSON.stringify(current.slice(lineStart, at[0]! + 2))}`);
      boxes.push(at[0]!);
      current = ticked.text;
    }
    assert.equal(new Set(boxes).size, 5);
  });

  it('attack: completing a keyless task whose title was cut never ticks another task of the same cut title, after the user moved or removed lines', async () => {
    const long = 'Refactor the storage layer so that '.repeat(6);
    const [albums, photos] = [`- [ ] ${long}for albums`, `- [ ] ${long}for photos`];
    const plan = imported('todo.md', `${albums}\n${photos}\n`);
    assert.equal(plan.steps[0]!.title, plan.steps[1]!.title, 'both titles are cut to the same text');
    const first: Plan = { ...plan, steps: [plan.steps[0]!] };
    // The user swaps the two tasks while the run goes on (moved lines are promised to be found again).
    const swapped = createMemoryWorkspace({ 'todo.md': `${photos}\n${albums}\n` });
    await run(first, { workspace: swapped });
    assert.equal(swapped.snapshot()['todo.md']!.split('\n')[0], photos, 'the photos task, which never ran, was ticked for the albums task (lines swapped)');
    // The user drops the albums task; only the photos task is left, now on line 1.
    const dropped = createMemoryWorkspace({ 'todo.md': `${photos}\n` });
    await run(first, { workspace: dropped });
    assert.equal(dropped.snapshot()['todo.md'], `${photos}\n`, 'the photos task, which never ran, was ticked for the albums task (line removed)');
  });

  it('attack: a task file with old Mac line endings (CR alone) is not run as one task holding the others, leaving them unticked', async () => {
    const text = '- [ ] T001 First\r- [ ] T002 Second\r- [ ] T003 Third\r';
    const result = importTaskFile('tasks.md', text, { model: true, tick: true });
    if (!result.ok) return; // Refused: nothing runs as if it were what the user sees.
    const memory = createMemoryWorkspace({ 'tasks.md': text });
    const { status } = await run(result.plan, { workspace: memory });
    const now = memory.snapshot()['tasks.md']!;
    if (status === 'completed') {
      assert.equal((now.match(/\[x\]/g) ?? []).length, 3, `the run completed with ${JSON.stringify(result.plan.steps.map((step) => step.title))} and the file ${JSON.stringify(now)}`);
    }
  });

  it('attack: an import and an export unedited of a CRLF Spec Kit file with a BOM keep every task, key, [P] and tick', () => {
    const text = ['\uFEFF# Tasks: X', '', '## Phase 1', '- [x] T001 Setup', '- [ ] T002 [P] [US1] Add `src/a.ts`', '- [ ] T003 [P] Add src/b.ts (depends on T001)', ''].join('\r\n');
    const result = importTaskFile('tasks.md', text, { model: true });
    assert.ok(result.ok);
    const back = exportTaskFile(result.plan, 'speckit');
    const again = importTaskFile('tasks.md', back, { model: true });
    assert.ok(again.ok);
    const shape = (plan: Plan): unknown => plan.steps.map((step) => [step.id, step.title, step.dependsOn, step.skipped === true]);
    assert.deepEqual(shape(again.plan), shape(result.plan));
  });

  describe('a task file swapped for a link after the import', () => {
    let dir: string;
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-tick-attack-'));
      fs.mkdirSync(path.join(dir, '.git'));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    for (const [target, name] of [['.git/info.md', 'into git\'s folder'], ['.env', 'to a credential file'], ['.GIT/../.git/notes.md', 'into git\'s folder by another spelling']] as const) {
      it(`attack: never ticks through a link ${name} (${target})`, async () => {
        const targetPath = path.join(dir, target);
        fs.mkdirSync(path.dirname(targetPath), { recursive: true });
        fs.writeFileSync(targetPath, '- [ ] T001 Do it\n');
        fs.symlinkSync(target, path.join(dir, 'tasks.md'));
        const { events, status } = await run(imported('tasks.md', '- [ ] T001 Do it\n'), { workspace: createNodeWorkspace(dir), approvalPolicy: 'commandsOnly' });
        assert.equal(status, 'completed');
        assert.equal(fs.readFileSync(targetPath, 'utf8'), '- [ ] T001 Do it\n');
        assert.equal(warnings(events).length, 1);
      });
    }
  });
});
