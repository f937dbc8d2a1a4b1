import assert from 'node:assert/strict';
import '../../fakes/vscodeL10n';
import type { RunResult } from '../../../src/core/engine/runOptions';
import type { InteropFormat } from '../../../src/core/interop/interopFormats';
import { readOrigin } from '../../../src/core/interop/sourceOrigin';
import type { Plan } from '../../../src/core/plan/planSchema';
import type { Uri } from 'vscode';
import type { RunState } from '../../../src/core/engine/runEvents';
import type { PlanReview } from '../../../src/vscode/planReview';
import { exportPlanAsTaskFile, maxTaskFileChars, offersPlanFromFile, planFromTaskFile, type TaskFileDeps } from '../../../src/vscode/taskFileCommands';

const specKit = [
  '# Tasks: Albums',
  '',
  '**Input**: design documents',
  '',
  '## Phase 1: Setup',
  '- [ ] T001 Create the project',
  '- [ ] T002 [P] Add src/models/album.ts',
  '- [ ] T003 [P] Add src/models/photo.ts',
  '',
].join('\n');

function setup(
  options: { review?: (plan: Plan) => Plan | undefined; tick?: boolean; model?: boolean; format?: InteropFormat; runWarnings?: string[]; run?: RunState; saveAs?: boolean } = {},
) {
  const seen = {
    told: [] as string[],
    reviewed: [] as Plan[],
    started: [] as Plan[],
    errors: [] as string[],
    warned: [] as string[],
    infos: [] as string[],
    markdown: [] as string[],
    proposed: [] as string[],
    opened: [] as string[],
  };
  const review: PlanReview = async (plan, _critique, warnings) => {
    seen.reviewed.push(plan);
    seen.told.push(...warnings);
    return options.review ? options.review(plan) : plan;
  };
  const deps: TaskFileDeps = {
    review: () => review,
    tools: () => [],
    trusted: () => true,
    model: () => options.model ?? false,
    tick: () => options.tick ?? false,
    showPlan: () => undefined,
    start: async (plan) => {
      seen.started.push(plan);
      return { runId: 'run-1', status: 'completed', metadata: { warnings: options.runWarnings ?? [] } } as unknown as RunResult;
    },
    run: () => options.run,
    now: () => Date.parse('2026-12-06T10:00:00.000Z'),
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    ui: {
      info: (message) => seen.infos.push(message),
      warn: (message) => seen.warned.push(message),
      error: (message) => seen.errors.push(message),
      pickFormat: async () => options.format,
      saveLocation: async (fileName) => {
        seen.proposed.push(fileName);
        return options.saveAs === false ? undefined : ({ path: `/w/${fileName}`, fsPath: `/w/${fileName}` } as unknown as Uri);
      },
      writeFile: async (_uri, text) => void seen.markdown.push(text),
      openFile: async (uri) => void seen.opened.push(uri.path),
    },
  };
  return { deps, seen };
}

describe('Plan from file (editor)', () => {
  it('shows the review what came from where, and runs the plan started there', async () => {
    const { deps, seen } = setup();
    const outcome = await planFromTaskFile({ name: 'specs/001/tasks.md', text: specKit, inWorkspace: true }, deps);
    await outcome.run;
    assert.deepEqual(seen.told, [
      'From specs/001/tasks.md (Spec Kit tasks.md): 3 tasks from 8 lines; each step ends with the file and line it came from. Headings became sections. 1 other line of the file is kept in the objective as written.',
    ]);
    const [plan] = seen.reviewed;
    assert.deepEqual(
      plan!.steps.map((step) => `${step.id} ${step.kind} line ${readOrigin(step.input ?? '').origin?.line}`),
      ['T001 manual line 6', 'T002 manual line 7', 'T003 manual line 8'],
    );
    assert.match(plan!.objective, /\*\*Input\*\*: design documents/, 'a line that is no task is kept in the objective');
    assert.equal(seen.started[0], plan);
    assert.equal(readOrigin(plan!.steps[0]!.input ?? '').origin?.tick, false, 'no tick unless the user turned it on');
  });

  it('says what was read: tasks from lines, headings as sections, never "every line is a task" (a newcomer\'s trial)', async () => {
    const todo = ['# Release 0.4', '', '## Code', '', '- [x] Rename searchNotes', '- [ ] Run `npm test`', '', '## Release', '', '- [ ] Tag the release', ''].join('\n');
    const { deps, seen } = setup();
    await planFromTaskFile({ name: 'TODO.md', text: todo, inWorkspace: true }, deps);
    assert.deepEqual(seen.told, [
      'From TODO.md (Markdown checklist): 3 tasks from 10 lines; each step ends with the file and line it came from. Headings became sections.',
    ]);
    const flat = setup();
    await planFromTaskFile({ name: 'tasks.md', text: '- [ ] One\n- [ ] Two\n', inWorkspace: true }, flat.deps);
    assert.deepEqual(flat.seen.told, ['From tasks.md (Markdown checklist): 2 tasks from 2 lines; each step ends with the file and line it came from.']);
  });

  it('dates the plan by the clock it is given, not 1970 (a newcomer\'s trial)', async () => {
    const { deps, seen } = setup();
    await planFromTaskFile({ name: 'tasks.md', text: specKit, inWorkspace: true }, deps);
    assert.equal(seen.reviewed[0]!.createdAt, '2026-12-06T10:00:00.000Z');
  });

  it('marks every step to tick its checkbox when the setting is on and the file is in the workspace, and says so', async () => {
    const { deps, seen } = setup({ tick: true, model: true });
    await planFromTaskFile({ name: 'specs/001/tasks.md', text: specKit, inWorkspace: true }, deps);
    assert.ok(seen.reviewed[0]!.steps.every((step) => step.kind === 'agent' && readOrigin(step.input ?? '').origin?.tick === true));
    assert.equal(seen.told[1], 'As each step completes, its checkbox in specs/001/tasks.md is ticked: a file change you approve like any other.');
  });

  it('with ticking on, plans a Cursor plan (which has no checkbox) without ticking, as a Spec Kit file is planned with it', async () => {
    const cursor = '---\nname: Tags\ntodos:\n  - id: store\n    content: Store the tags\n    status: pending\n---\n\n# Tags\n';
    const { deps, seen } = setup({ tick: true, model: true });
    await planFromTaskFile({ name: '.cursor/plans/tags.plan.md', text: cursor, inWorkspace: true }, deps);
    assert.equal(seen.reviewed.length, 1, seen.errors.join('\n'));
    assert.ok(seen.reviewed[0]!.steps.every((step) => readOrigin(step.input ?? '').origin?.tick === false));
  });

  it('says which checkboxes were not ticked once the run ends, and only those of the file', async () => {
    const problem = 'T002: specs/001/tasks.md has no checkbox for task T002 any more (it was on line 7); it was left as it is.';
    const { deps, seen } = setup({ tick: true, runWarnings: ['T001: The placeholder $x has no result to insert and stays verbatim.', problem] });
    await (await planFromTaskFile({ name: 'specs/001/tasks.md', text: specKit, inWorkspace: true }, deps)).run;
    assert.deepEqual(seen.warned, [`Task Planner: not every checkbox of specs/001/tasks.md was ticked. ${problem}`]);
    const off = setup({ runWarnings: [problem] });
    await (await planFromTaskFile({ name: 'specs/001/tasks.md', text: specKit, inWorkspace: true }, off.deps)).run;
    assert.deepEqual(off.seen.warned, []);
  });

  it('a task line with terminal escapes, a link or HTML cannot act in the notification that names it', async () => {
    const problem = 'S1: tasks.md has no checkbox for the task "\u001b[2Jrun [me](command:workbench.action.terminal.new) <b>now</b>" any more';
    const { deps, seen } = setup({ tick: true, runWarnings: [problem] });
    await (await planFromTaskFile({ name: 'tasks.md', text: '- [ ] \u001b[2Jrun [me](command:workbench.action.terminal.new) <b>now</b>\n', inWorkspace: true }, deps)).run;
    assert.equal(seen.warned.length, 1);
    assert.doesNotMatch(seen.warned[0]!, /\u001b|\]\(/);
    assert.match(seen.warned[0]!, /\\u001b\[2Jrun \[me\] \(command:/);
  });

  it('never marks a file outside the workspace to be ticked, and says why', async () => {
    const { deps, seen } = setup({ tick: true });
    await planFromTaskFile({ name: 'tasks.md', text: specKit, inWorkspace: false }, deps);
    assert.ok(seen.reviewed[0]!.steps.every((step) => readOrigin(step.input ?? '').origin?.tick === false));
    assert.equal(seen.told[1], 'The checkboxes of tasks.md are not ticked: the file is outside the workspace.');
  });

  it('starts nothing when the review is cancelled, the file holds no task, or it is too large', async () => {
    const cancelled = setup({ review: () => undefined });
    assert.deepEqual(await planFromTaskFile({ name: 'tasks.md', text: specKit, inWorkspace: true }, cancelled.deps), {});
    assert.deepEqual(cancelled.seen.started, []);
    const empty = setup();
    assert.deepEqual(await planFromTaskFile({ name: 'notes.md', text: '# Notes\n\nJust prose.\n', inWorkspace: true }, empty.deps), {});
    assert.match(empty.seen.errors[0]!, /^Task Planner: notes\.md is in none of the task formats read/);
    const large = setup();
    await planFromTaskFile({ name: 'tasks.md', text: 'x'.repeat(maxTaskFileChars + 1), inWorkspace: true }, large.deps);
    assert.match(large.seen.errors[0]!, /too large to be a task list/);
    assert.deepEqual(large.seen.reviewed, []);
  });

  it('reads 5,000 tasks into one review', async () => {
    const lines = Array.from({ length: 5000 }, (_, index) => `- [ ] T${String(index + 1).padStart(4, '0')} Task ${index + 1}`);
    const { deps, seen } = setup();
    await planFromTaskFile({ name: 'tasks.md', text: `# Big\n\n${lines.join('\n')}\n`, inWorkspace: true }, deps);
    assert.equal(seen.reviewed[0]?.steps.length, 5000);
  });

  it('offers "Plan from this file" on task files only, not on a Markdown note with a checkbox', () => {
    assert.equal(offersPlanFromFile('specs/001/tasks.md', specKit), true);
    assert.equal(offersPlanFromFile('.kiro/specs/auth/tasks.md', '- [ ] 1. Set up\n'), true);
    assert.equal(offersPlanFromFile('.cursor/plans/fix.plan.md', '---\nname: x\ntodos:\n  - id: a\n---\n'), true);
    assert.equal(offersPlanFromFile('tasks.md', '- [ ] write docs\n'), true);
    assert.equal(offersPlanFromFile('README.md', '- [ ] write docs\n'), false);
    assert.equal(offersPlanFromFile('tasks.md', '# Tasks\n\nNone yet.\n'), false);
  });
});

describe('Export plan for another tool (editor)', () => {
  it('writes the plan in the format picked into a new document, and reads back the same steps', async () => {
    const { deps, seen } = setup({ format: 'speckit' });
    const first = setup();
    await planFromTaskFile({ name: 'tasks.md', text: specKit, inWorkspace: true }, first.deps);
    const text = await exportPlanAsTaskFile(first.seen.reviewed[0], deps);
    assert.equal(seen.markdown[0], text);
    assert.match(text ?? '', /- \[ \] T002 \[P\] Add src\/models\/album\.ts/);
  });

  it('proposes the format\'s usual file name, not the first line of the text (a newcomer\'s trial)', async () => {
    const plan = (await planFromTaskFile({ name: 'tasks.md', text: specKit, inWorkspace: true }, setup().deps)).plan;
    const names = [];
    for (const format of ['speckit', 'kiro', 'checklist', 'cursor', 'copilot'] as const) {
      const { deps, seen } = setup({ format });
      await exportPlanAsTaskFile(plan, deps);
      names.push(seen.proposed[0]);
      assert.deepEqual(seen.opened, [`/w/${seen.proposed[0]}`]);
    }
    assert.deepEqual(names, ['tasks.md', 'tasks.md', 'tasks.md', 'tasks-albums.plan.md', 'plan-tasks-albums.prompt.md']);
    const cancelled = setup({ format: 'speckit', saveAs: false });
    assert.equal(await exportPlanAsTaskFile(plan, cancelled.deps), undefined);
    assert.deepEqual([cancelled.seen.markdown, cancelled.seen.opened], [[], []]);
  });

  it('ticks the steps the run shown with the plan completed, and only for a run of that plan', async () => {
    const plan = (await planFromTaskFile({ name: 'tasks.md', text: specKit, inWorkspace: true }, setup().deps)).plan!;
    const run = { plan, status: 'partial', steps: { T001: { status: 'completed' }, T002: { status: 'failed' } } } as unknown as RunState;
    const { deps } = setup({ format: 'speckit', run });
    const text = await exportPlanAsTaskFile(plan, deps);
    // Nothing waits for a step done: what is left can all go on now.
    assert.match(text ?? '', /- \[x\] T001 (?:\[P\] )?Create the project\n- \[ \] T002 \[P\] Add src\/models\/album\.ts\n- \[ \] T003 \[P\]/);
    const other = setup({ format: 'speckit', run: { ...run, plan: { ...plan, id: 'plan-other' } } });
    assert.doesNotMatch((await exportPlanAsTaskFile(plan, other.deps)) ?? '', /\[x\]/);
  });

  it('says there is no plan, and writes nothing when the format is not picked', async () => {
    const none = setup({ format: 'kiro' });
    assert.equal(await exportPlanAsTaskFile(undefined, none.deps), undefined);
    assert.match(none.seen.infos[0]!, /no plan to export yet/);
    const cancelled = setup();
    const plan = (await planFromTaskFile({ name: 'tasks.md', text: specKit, inWorkspace: true }, setup().deps)).plan;
    assert.equal(await exportPlanAsTaskFile(plan, cancelled.deps), undefined);
    assert.deepEqual(cancelled.seen.markdown, []);
  });
});
