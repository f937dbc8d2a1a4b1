import assert from 'node:assert/strict';
import { initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import type { Tool } from '../../../../src/core/tools/tool';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { PanelSession } from '../../../../src/core/view/panelSession';
import type { PanelViewModel, ReviewView } from '../../../../src/shared/panelViewModel';
import { makePlan, makeStep } from '../../../support/randomPlans';
import { parseWebviewMessage } from '../../../../src/shared/panelProtocol';
import { formToEdit, initialValues } from '../../../../webview/stepFormModel';

const tools = [readFileTool, writeFileTool] as Tool[];
const plan = makePlan([
  makeStep('A', { kind: 'tool', tool: 'read_file', args: { path: 'a.txt' }, agent: undefined, input: undefined }),
  makeStep('B', { agent: 'coder', input: 'summarise', verification: 'result !== ""', when: 'true' }),
], { agents: { coder: { prompt: 'You write code.', tools: [] } } });

function reviewOf(model: PanelViewModel): ReviewView {
  assert.ok(model.mode === 'review');
  return model.review;
}

function reviewing(): PanelSession {
  const session = new PanelSession('s1', tools);
  session.setPlan(plan);
  return session;
}

describe('PanelSession: edits from the panel form', () => {
  it('a new kind drops the tool and arguments of a tool step, and the agent of a step no agent does', () => {
    const session = reviewing();
    const toAgent = session.applyEdit({ type: 'updateStep', stepId: 'A', patch: { kind: 'agent', input: 'read it yourself' } });
    assert.ok(toAgent.ok);
    const agentStep = toAgent.plan.steps[0]!;
    assert.deepEqual([agentStep.kind, agentStep.tool, agentStep.args, agentStep.input], ['agent', undefined, undefined, 'read it yourself']);
    const toManual = session.applyEdit({ type: 'updateStep', stepId: 'B', patch: { kind: 'manual' } });
    assert.ok(toManual.ok);
    assert.deepEqual([toManual.plan.steps[1]!.kind, toManual.plan.steps[1]!.agent], ['manual', undefined]);
    const toTool = session.applyEdit({ type: 'updateStep', stepId: 'A', patch: { kind: 'tool', tool: 'read_file', args: { path: 'b.txt' } } });
    assert.ok(toTool.ok);
    assert.deepEqual([toTool.plan.steps[0]!.tool, toTool.plan.steps[0]!.args, toTool.plan.steps[0]!.agent], ['read_file', { path: 'b.txt' }, undefined]);
  });

  it('an edit that keeps the kind keeps the tool, the arguments and the agent', () => {
    const session = reviewing();
    const tool = session.applyEdit({ type: 'updateStep', stepId: 'A', patch: { title: 'Read first' } });
    assert.ok(tool.ok);
    assert.deepEqual([tool.plan.steps[0]!.tool, tool.plan.steps[0]!.args], ['read_file', { path: 'a.txt' }]);
    const agent = session.applyEdit({ type: 'updateStep', stepId: 'B', patch: { kind: 'agent', title: 'Think' } });
    assert.ok(agent.ok);
    assert.equal(agent.plan.steps[1]!.agent, 'coder');
  });

  it('a blank input, verification or condition clears it; text with content is kept', () => {
    const session = reviewing();
    const cleared = session.applyEdit({ type: 'updateStep', stepId: 'B', patch: { input: '  ', verification: '', when: '\n' } });
    assert.ok(cleared.ok);
    const step = cleared.plan.steps[1]!;
    assert.deepEqual([step.input, step.verification, step.when], [undefined, undefined, undefined]);
    const kept = session.applyEdit({ type: 'updateStep', stepId: 'B', patch: { input: ' new ' } });
    assert.ok(kept.ok);
    assert.equal(kept.plan.steps[1]!.input, ' new ');
  });

  it('adds a step with no dependencies unless given, at the end or at the given place', () => {
    const session = reviewing();
    const added = session.applyEdit({ type: 'addStep', step: { id: 'M', kind: 'manual', title: 'Check it' } });
    assert.ok(added.ok);
    assert.deepEqual(added.plan.steps.map((step) => step.id), ['A', 'B', 'M']);
    assert.deepEqual(added.plan.steps[2]!.dependsOn, []);
    const first = session.applyEdit({ type: 'addStep', step: { id: 'N', kind: 'manual', title: 'Before all', dependsOn: [] }, index: 0 });
    assert.ok(first.ok);
    assert.deepEqual(first.plan.steps.map((step) => step.id), ['N', 'A', 'B', 'M']);
    const after = session.applyEdit({ type: 'addStep', step: { id: 'O', kind: 'manual', title: 'After A', dependsOn: ['A'] } });
    assert.ok(after.ok);
    assert.deepEqual(after.plan.steps.at(-1)!.dependsOn, ['A']);
    assert.deepEqual(reviewOf(session.snapshot(0)).versions.map((version) => version.label), ['v4 · added O', 'v3 · added N', 'v2 · added M', 'v1 · planned']);
  });

  it("edits the files a step may change through the form: the review shows them, the version list names the edit, and an emptied list removes them", () => {
    const session = reviewing();
    // What the form sends, checked on arrival as the host checks every message.
    const save = (stepId: string, change: (values: ReturnType<typeof initialValues>) => ReturnType<typeof initialValues>) => {
      const view = reviewOf(session.snapshot(0)).steps.find((step) => step.id === stepId)!;
      const form = formToEdit(change(initialValues(view, ['read_file', 'write_file'])), view);
      assert.ok(form.ok, JSON.stringify(form));
      const message = parseWebviewMessage({ type: 'edit', plan: { id: 'plan-test', version: 1 }, edit: form.edit });
      assert.ok(message.ok && message.message.type === 'edit', JSON.stringify(message));
      return session.applyEdit(message.message.edit);
    };
    const scoped = save('B', (values) => ({ ...values, writes: 'src/**/*.ts\n./docs/\nsrc/**/*.ts' }));
    assert.ok(scoped.ok);
    assert.deepEqual(scoped.plan.steps[1]!.writes, ['src/**/*.ts', 'docs']);
    const shown = reviewOf(session.snapshot(0)).steps[1]!;
    assert.deepEqual([shown.writes, shown.writePatterns], ['src/**/*.ts, docs', ['src/**/*.ts', 'docs']]);
    assert.equal(reviewOf(session.snapshot(0)).versions[0]?.label, 'v2 · changed the files B may change');
    const alsoTitle = save('B', (values) => ({ ...values, title: 'Think harder', writes: 'src' }));
    assert.ok(alsoTitle.ok);
    assert.equal(reviewOf(session.snapshot(0)).versions[0]?.label, 'v3 · edited B', 'an edit of more than the files is an edit');
    const emptied = save('B', (values) => ({ ...values, writes: '' }));
    assert.ok(emptied.ok);
    assert.equal(emptied.plan.steps[1]!.writes, undefined, 'no limit: the step is serialized against every writer again');
    assert.equal(reviewOf(session.snapshot(0)).steps[1]!.writes, undefined);
    assert.equal(reviewOf(session.snapshot(0)).versions[0]?.label, 'v4 · changed the files B may change');
  });

  it("keeps a plan's \"changes no file\" through an edit of something else, and drops the files of a step turned into a person's", () => {
    const session = new PanelSession('s1', tools);
    session.setPlan(makePlan([makeStep('A', { kind: 'tool', tool: 'read_file', args: { path: 'a.txt' }, agent: undefined, input: undefined, writes: [] })]));
    const view = reviewOf(session.snapshot(0)).steps[0]!;
    const form = formToEdit({ ...initialValues(view, ['read_file']), title: 'Read a' }, view);
    assert.ok(form.ok && form.edit.type === 'updateStep' && !('writes' in form.edit.patch));
    const titled = session.applyEdit(form.edit);
    assert.ok(titled.ok);
    assert.deepEqual(titled.plan.steps[0]!.writes, []);
    const direct = session.applyEdit({ type: 'updateStep', stepId: 'A', patch: { writes: ['a.txt', 'a.txt'] } });
    assert.ok(direct.ok);
    assert.deepEqual(direct.plan.steps[0]!.writes, ['a.txt'], 'each once, whoever sent the list');
    const manual = session.applyEdit({ type: 'updateStep', stepId: 'A', patch: { kind: 'manual', input: 'do it', writes: ['a.txt'] } });
    assert.ok(manual.ok);
    assert.equal(manual.plan.steps[0]!.writes, undefined);
    const added = session.applyEdit({ type: 'addStep', step: { id: 'W', kind: 'tool', title: 'Write', tool: 'read_file', args: { path: 'b' }, writes: [] } });
    assert.ok(added.ok);
    assert.equal('writes' in added.plan.steps[1]!, false, 'a new step with an empty list has no limit either');
    const addedScoped = session.applyEdit({ type: 'addStep', step: { id: 'X', kind: 'agent', title: 'Do', input: 'x', writes: ['b.txt', 'b.txt'] } });
    assert.ok(addedScoped.ok);
    assert.deepEqual(addedScoped.plan.steps[2]!.writes, ['b.txt']);
  });

  it('refuses edits without a plan, and Regenerate and Start without a plan under review, saying why', () => {
    const session = new PanelSession('s1', tools);
    assert.deepEqual(session.applyEdit({ type: 'skipStep', stepId: 'A' }), { ok: false, error: 'There is no plan to edit.' });
    assert.equal(session.regenerateBlockedReason(), 'Only a plan under review can be regenerated.');
    assert.equal(session.startBlockedReason(), 'There is no plan to start.');
    assert.deepEqual([session.isReviewing(), session.isRunning(), session.runId(), session.currentPlan()], [false, false, undefined, undefined]);
    assert.equal(session.outputResync(), undefined);
  });

  it('refuses edits once a run is shown, and no longer reviews', () => {
    const session = reviewing();
    session.showRun(initialRunState('run-1'), true);
    assert.deepEqual(session.applyEdit({ type: 'skipStep', stepId: 'A' }), {
      ok: false,
      error: 'The plan cannot be edited while it runs or after it ran; plan again to change it.',
    });
    assert.equal(session.isReviewing(), false);
    assert.equal(session.regenerateBlockedReason(), 'Only a plan under review can be regenerated.');
    assert.equal(session.runId(), 'run-1');
  });

  it('checks a new plan anew, also when it has the version of the plan it replaces', () => {
    const session = reviewing();
    assert.equal(reviewOf(session.snapshot(0)).startBlockedReason, undefined);
    session.setPlan({ ...plan, id: 'plan-other', steps: [makeStep('Z', { kind: 'tool', tool: 'nope', agent: undefined })] });
    assert.match(session.startBlockedReason() ?? '', /^Fix the error first/, 'another plan of the same version is checked anew');
  });
});

describe('PanelSession: a Save that changes nothing', () => {
  // Every kind the form edits, with the fields a plan file or a model gives them: each saved as the form shows it.
  const varied = makePlan(
    [
      makeStep('S1', { kind: 'tool', tool: 'read_file', args: { path: 'a.txt' }, agent: undefined, input: undefined }),
      makeStep('S2', { kind: 'tool', tool: 'write_file', args: { path: 'notes.md', content: 'line one\nline two\n' }, agent: undefined, input: undefined, dependsOn: ['S1'], writes: ['notes.md'], checks: [{ kind: 'file_exists', path: 'notes.md' }] }),
      makeStep('S3', { agent: 'coder', input: 'summarise', verification: 'result !== ""', dependsOn: ['S2'], maxAttempts: 3, onFailure: 'retry' }),
      makeStep('S4', { kind: 'manual', agent: undefined, input: 'Look it over', dependsOn: ['S3'] }),
      makeStep('S5', { kind: 'human_review', agent: undefined, input: 'Approve?', dependsOn: ['S4'], critical: true }),
      makeStep('S6', { kind: 'tool', tool: 'append_file', args: { path: 'log.md', content: 'done' }, agent: undefined, input: undefined, dependsOn: ['S5'] }),
    ],
    { agents: { coder: { prompt: 'You write code.', tools: [] } } },
  );

  it('makes no new version for any step saved as it was (a newcomer saw "v2 · edited S6" after Save with no change)', () => {
    const session = new PanelSession('s1', tools);
    session.setPlan(varied);
    const review = reviewOf(session.snapshot(1));
    for (const step of review.steps) {
      const form = formToEdit(initialValues(step, review.tools, { templates: review.toolTemplates ?? {} }), step);
      assert.ok(form.ok, `${step.id}: ${JSON.stringify(form)}`);
      const saved = session.applyEdit(form.edit);
      assert.ok(saved.ok, step.id);
      assert.equal(saved.plan.version, varied.version, `${step.id} saved unchanged makes no version`);
    }
    const after = reviewOf(session.snapshot(2));
    assert.equal(after.planVersion, varied.version);
    assert.deepEqual(after.versions.map((version) => version.label), [`v${varied.version} · planned`]);
  });

  it("gives the form each tool's argument names, so choosing another tool keeps the arguments it takes too", () => {
    const session = new PanelSession('s1', tools);
    session.setPlan(varied);
    const review = reviewOf(session.snapshot(1));
    assert.deepEqual(review.toolParameters?.write_file, ['path', 'content']);
    assert.ok(review.toolParameters?.read_file?.includes('path'));
  });

  it('still makes a version for a change, however small', () => {
    const session = new PanelSession('s1', tools);
    session.setPlan(varied);
    const step = reviewOf(session.snapshot(1)).steps[0]!;
    const form = formToEdit({ ...initialValues(step, []), title: `${step.title}.` }, step);
    assert.ok(form.ok);
    const saved = session.applyEdit(form.edit);
    assert.ok(saved.ok);
    assert.equal(saved.plan.version, varied.version + 1);
  });
});
