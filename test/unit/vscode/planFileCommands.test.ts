import assert from 'node:assert/strict';
import '../../fakes/vscodeL10n';
import type * as vscode from 'vscode';
import type { RunState } from '../../../src/core/engine/runEvents';
import { initialRunState } from '../../../src/core/engine/reduceRunEvent';
import type { RunResult } from '../../../src/core/engine/runOptions';
import type { Plan } from '../../../src/core/plan/planSchema';
import type { Tool } from '../../../src/core/tools/tool';
import { exportPlanMarkdown, reviewPlanFile, runPlanFile, savePlanAsFile, type PlanFileDeps, type PlanFileUi } from '../../../src/vscode/planFileCommands';
import type { PlanReview } from '../../../src/vscode/planReview';
import { makePlan, makeStep } from '../../support/randomPlans';

const uri = (path: string): vscode.Uri =>
  ({ path, fsPath: path, toString: () => `file://${path}`, with: (change: { path: string }) => uri(change.path) }) as unknown as vscode.Uri;

interface Recorded {
  asked: string[];
  written: { path: string; text: string }[];
  opened: string[];
  markdown: string[];
  infos: string[];
  errors: string[];
  warned: string[];
  shown: Plan[];
  started: Plan[];
  reviewed: Plan[];
  reviewWarnings: string[];
  findings: string[];
}

function setup(
  options: {
    plan?: Plan;
    run?: RunState;
    saveTo?: string;
    writeFails?: boolean;
    review?: (plan: Plan) => Plan | undefined;
    startFails?: boolean;
    trusted?: boolean;
  } = {},
) {
  const seen: Recorded = {
    asked: [],
    written: [],
    opened: [],
    markdown: [],
    infos: [],
    errors: [],
    warned: [],
    shown: [],
    started: [],
    reviewed: [],
    reviewWarnings: [],
    findings: [],
  };
  const ui: PlanFileUi = {
    saveLocation: async (fileName) => {
      seen.asked.push(fileName);
      return options.saveTo === undefined ? undefined : uri(options.saveTo);
    },
    writeFile: async (target, text) => {
      if (options.writeFails) throw new Error('EACCES: permission denied');
      seen.written.push({ path: target.path, text });
    },
    openFile: async (target) => void seen.opened.push(target.path),
    openMarkdown: async (text) => void seen.markdown.push(text),
    info: (message) => void seen.infos.push(message),
    error: (message) => void seen.errors.push(message),
  };
  const review: PlanReview = async (plan, critique, warnings) => {
    seen.reviewed.push(plan);
    seen.findings.push(...critique.issues.map((issue) => `${issue.check} ${issue.stepId ?? ''}`));
    seen.reviewWarnings.push(...warnings);
    return options.review ? options.review(plan) : plan;
  };
  const tools = ['read_file', 'write_file'].map((name) => ({ name }) as Tool);
  const deps: PlanFileDeps = {
    plan: () => options.plan,
    run: () => options.run,
    tools: () => tools,
    trusted: () => options.trusted !== false,
    showPlan: (plan) => void seen.shown.push(plan),
    start: async (plan) => {
      seen.started.push(plan);
      if (options.startFails) throw new Error('A run is already going on.');
      return { runId: 'r1', status: 'completed' } as RunResult;
    },
    review: () => review,
    log: { info: () => undefined, warn: (message: string) => void seen.warned.push(message), error: () => undefined },
    ui,
  };
  return { deps, seen };
}

const plan = makePlan([makeStep('read', { title: 'Read it' }), makeStep('write', { title: 'Write it', dependsOn: ['read'] })], {
  objective: 'Tidy the README',
  version: 4,
});
const fileText = JSON.stringify({ objective: 'From a file', steps: [{ id: 'a', tool: 'read_file', args: { path: 'a.txt' } }] });

describe('plan-file commands', () => {
  describe('Save plan as file', () => {
    it('proposes a name from the objective, writes the current version as indented JSON, then opens it', async () => {
      const { deps, seen } = setup({ plan, saveTo: '/ws/tidy-the-readme.plan.json' });
      const saved = await savePlanAsFile(deps);
      assert.equal(saved?.path, '/ws/tidy-the-readme.plan.json');
      assert.deepEqual(seen.asked, ['tidy-the-readme.plan.json']);
      assert.equal(seen.written.length, 1);
      assert.deepEqual(JSON.parse(seen.written[0]!.text), plan);
      assert.ok(seen.written[0]!.text.includes('\n  "version": 4,\n'));
      assert.deepEqual(seen.opened, ['/ws/tidy-the-readme.plan.json']);
      assert.deepEqual(seen.infos, []);
    });

    it('writes nothing when the dialog is cancelled, and says so when there is no plan', async () => {
      const cancelled = setup({ plan });
      assert.equal(await savePlanAsFile(cancelled.deps), undefined);
      assert.deepEqual([cancelled.seen.written, cancelled.seen.opened], [[], []]);
      const none = setup({ saveTo: '/ws/x.plan.json' });
      assert.equal(await savePlanAsFile(none.deps), undefined);
      assert.deepEqual(none.seen.asked, []);
      assert.match(none.seen.infos[0] ?? '', /no plan to save or export yet/);
    });

    it('tells how to get completion when the chosen name is not *.plan.json, and reports a write that failed', async () => {
      const plain = setup({ plan, saveTo: '/ws/tidy.json' });
      await savePlanAsFile(plain.deps);
      assert.match(plain.seen.infos[0] ?? '', /Name a plan file \*\.plan\.json/);
      const failing = setup({ plan, saveTo: '/ws/tidy.plan.json', writeFails: true });
      assert.equal(await savePlanAsFile(failing.deps), undefined);
      assert.deepEqual(failing.seen.errors, ['Task Planner: could not save the plan to /ws/tidy.plan.json: EACCES: permission denied']);
      assert.deepEqual(failing.seen.opened, []);
    });
    it('never doubles the extension a save dialog added to a name that had one (issue 28 item 8)', async () => {
      const cases: [string, string][] = [
        ['/ws/x.plan.json.json', '/ws/x.plan.json'],
        ['/ws/x.plan.json.plan.json', '/ws/x.plan.json'],
        ['/ws/x.PLAN.JSON.plan.json', '/ws/x.PLAN.JSON'],
        ['/ws/x.PLAN.JSON.json', '/ws/x.PLAN.JSON'],
        ['/ws/x.json.plan.json', '/ws/x.json'],
        ['/ws/x.json.json', '/ws/x.json'],
        ['/ws/x.plan.json', '/ws/x.plan.json'],
        ['/ws/x.PLAN.JSON', '/ws/x.PLAN.JSON'],
        ['/ws/x.json', '/ws/x.json'],
        ['/ws/dir.json/x.plan.json', '/ws/dir.json/x.plan.json'],
      ];
      for (const [chosen, expected] of cases) {
        const { deps, seen } = setup({ plan, saveTo: chosen });
        assert.equal((await savePlanAsFile(deps))?.path, expected, chosen);
        assert.deepEqual(
          [seen.written.map((file) => file.path), seen.opened],
          [[expected], [expected]],
          chosen,
        );
      }
    });
  });

  describe('Export as Markdown checklist', () => {
    it('opens the checklist, with the statuses of a run of this plan', async () => {
      const run: RunState = { ...initialRunState('r1'), plan, steps: { read: { id: 'read', status: 'completed', attempts: 1 } } };
      const { deps, seen } = setup({ plan, run });
      await exportPlanMarkdown(deps);
      assert.equal(seen.markdown.length, 1);
      assert.match(seen.markdown[0]!, /^# Tidy the README$/m);
      assert.match(seen.markdown[0]!, /^- \[x\] \*\*read\*\* Read it/m);
      assert.match(seen.markdown[0]!, /^- \[ \] \*\*write\*\* Write it/m);
    });

    it('leaves out the statuses of a run of another plan, and says so when there is no plan', async () => {
      const other = makePlan([makeStep('read')], { id: 'other' });
      const run: RunState = { ...initialRunState('r1'), plan: other, steps: { read: { id: 'read', status: 'completed', attempts: 1 } } };
      const { deps, seen } = setup({ plan, run });
      await exportPlanMarkdown(deps);
      assert.doesNotMatch(seen.markdown[0]!, /\[x\]/);
      const none = setup();
      assert.equal(await exportPlanMarkdown(none.deps), undefined);
      assert.deepEqual(none.seen.markdown, []);
    });
  });

  describe('Run plan file', () => {
    it('runs the plan in the editor text, shown in the Plan view', async () => {
      const { deps, seen } = setup();
      const started = runPlanFile({ name: 'plans/a.plan.json', text: fileText }, deps);
      assert.equal((await started?.run)?.status, 'completed');
      assert.equal(seen.started[0]?.objective, 'From a file');
      assert.deepEqual(seen.shown, seen.started);
    });

    it('runs nothing from a file that is not a plan that can run, and names every problem', () => {
      const { deps, seen } = setup();
      const text = JSON.stringify({
        objective: 'x',
        steps: [
          { id: 'a', tool: 'no_such_tool', args: {} },
          { id: 'b', tool: 'read_file', args: { path: 'b' }, dependsOn: ['zz'] },
        ],
      });
      assert.equal(runPlanFile({ name: 'bad.plan.json', text }, deps), undefined);
      assert.deepEqual(seen.started, []);
      assert.equal(seen.errors.length, 1);
      assert.match(seen.errors[0]!, /^Task Planner: bad\.plan\.json is not a plan that can run \(2 problems\): .*no_such_tool.*zz/);
      assert.equal(seen.warned.length, 2, 'each problem goes to the log');
      assert.equal(runPlanFile({ name: 'broken.plan.json', text: '{ "steps": [' }, deps), undefined);
      assert.match(seen.errors[1]!, /^Task Planner: broken\.plan\.json is not a plan that can run/);
    });

    it('opens a file that reading ignored something in (a dropped check, a misspelt field) in the review with what was ignored, instead of running it as if nothing was', async () => {
      const text = JSON.stringify({
        objective: 'x',
        steps: [{ id: 'a', tool: 'write_file', args: { path: 'a.txt', content: 'hi' }, checks: [{ kind: 'file_exist', path: 'a.txt' }], onFailur: 'retry' }],
      });
      const cancelled = setup({ review: () => undefined });
      assert.equal(await runPlanFile({ name: 'typo.plan.json', text }, cancelled.deps)?.run, undefined);
      assert.deepEqual(cancelled.seen.started, [], 'nothing runs unless the user starts it in the review');
      assert.equal(cancelled.seen.reviewed.length, 1);
      assert.equal(cancelled.seen.reviewWarnings.length, 2);
      assert.match(cancelled.seen.reviewWarnings[0]!, /check 1 was dropped: its kind file_exist/);
      assert.match(cancelled.seen.reviewWarnings[1]!, /ignored unknown field "onFailur"/);
      const accepted = setup();
      assert.equal((await runPlanFile({ name: 'typo.plan.json', text }, accepted.deps)?.run)?.status, 'completed');
      assert.equal(accepted.seen.started.length, 1);
    });

    it('reports a run that cannot start', async () => {
      const { deps, seen } = setup({ startFails: true });
      assert.equal(await runPlanFile({ name: 'a.plan.json', text: fileText }, deps)?.run, undefined);
      assert.deepEqual(seen.errors, ['Task Planner: A run is already going on.']);
    });
  });

  describe('Review plan file', () => {
    it('tells the review what reading the file ignored', async () => {
      const { deps, seen } = setup({ review: () => undefined });
      await reviewPlanFile(
        { name: 'a.plan.json', text: JSON.stringify({ objective: 'x', colour: 'red', steps: [{ id: 'a', tool: 'read_file', args: { path: 'a' } }] }) },
        deps,
      );
      assert.deepEqual(seen.reviewWarnings, ['Ignored unknown plan field "colour".']);
    });

    it('reviews the plan first, then runs the plan the user started (as edited in the review)', async () => {
      const { deps, seen } = setup({ review: (reviewed) => ({ ...reviewed, version: reviewed.version + 1 }) });
      const outcome = await reviewPlanFile({ name: 'a.plan.json', text: fileText }, deps);
      assert.equal(seen.reviewed[0]?.objective, 'From a file');
      assert.equal(outcome.plan?.version, 2);
      assert.equal((await outcome.run)?.status, 'completed');
      assert.equal(seen.started[0]?.version, 2);
    });

    it('critiques the plan under the workspace\'s trust: a step Restricted Mode refuses is a finding (issue 29)', async () => {
      const writes = JSON.stringify({ objective: 'x', steps: [{ id: 'w', tool: 'write_file', args: { path: 'a.txt', content: 'x' } }] });
      const untrusted = setup({ review: () => undefined, trusted: false });
      await reviewPlanFile({ name: 'a.plan.json', text: writes }, untrusted.deps);
      assert.ok(untrusted.seen.findings.includes('refused_untrusted w'), untrusted.seen.findings.join(', '));
      const trusted = setup({ review: () => undefined });
      await reviewPlanFile({ name: 'a.plan.json', text: writes }, trusted.deps);
      assert.ok(!trusted.seen.findings.includes('refused_untrusted w'));
    });

    it('runs nothing when the review is cancelled or the file is not a plan', async () => {
      const cancelled = setup({ review: () => undefined });
      assert.deepEqual(await reviewPlanFile({ name: 'a.plan.json', text: fileText }, cancelled.deps), {});
      assert.deepEqual(cancelled.seen.started, []);
      const invalid = setup();
      assert.deepEqual(await reviewPlanFile({ name: 'a.plan.json', text: '[]' }, invalid.deps), {});
      assert.deepEqual(invalid.seen.reviewed, []);
      assert.equal(invalid.seen.errors.length, 1);
    });
  });
});
