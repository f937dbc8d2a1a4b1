import assert from 'node:assert/strict';
import type { RunState, StepState } from '../../../../src/core/engine/runEvents';
import { planTreeModel } from '../../../../src/core/view/planTreeModel';
import { previewValue, stepStatusView, stepStatuses } from '../../../../src/core/view/stepStatusView';
import { formatDuration } from '../../../../src/shared/formatDuration';
import { diffTrees, indexTree } from '../../../../src/core/view/treeDiff';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([
  makeStep('a', { title: 'Read', kind: 'tool', tool: 'read_file', args: { path: 'x' }, agent: undefined }),
  makeStep('b', { title: 'Write', kind: 'tool', tool: 'write_file', args: { path: 'y', content: 'z' }, agent: undefined, dependsOn: ['a'], maxAttempts: 3 }),
  makeStep('c', { title: 'Ask', kind: 'clarification', agent: undefined }),
]);

function run(steps: Record<string, Partial<StepState>>): RunState {
  return {
    runId: 'r1',
    status: 'running',
    plan,
    steps: Object.fromEntries(Object.entries(steps).map(([id, patch]) => [id, { id, status: 'pending', attempts: 0, ...patch }])),
    results: {},
    supplied: {},
    lastSeq: 1,
    warnings: [],
    resumeCount: 0,
  };
}

describe('stepStatusView', () => {
  it('gives every status a distinct icon, a colour and a label', () => {
    const icons = stepStatuses.map((status) => stepStatusView(status).icon);
    assert.equal(new Set(icons).size, stepStatuses.length);
    assert.equal(stepStatuses.length, 12);
    assert.deepEqual(stepStatusView('awaiting_user'), { icon: 'person', color: 'charts.yellow', label: 'yours to do' });
    assert.deepEqual(stepStatusView('awaiting_budget'), { icon: 'credit-card', color: 'charts.yellow', label: 'waiting for a higher budget' });
    for (const status of stepStatuses) assert.ok(stepStatusView(status).color && stepStatusView(status).label);
    assert.deepEqual(stepStatusView('completed'), { icon: 'pass-filled', color: 'testing.iconPassed', label: 'completed' });
  });

  it('formats durations and previews values', () => {
    assert.deepEqual([formatDuration(850), formatDuration(4200), formatDuration(185_000)], ['850 ms', '4.2 s', '3 min 5 s']);
    assert.equal(previewValue({ path: 'README.md', content: '# Notes\nline 2', lines: [1, 2] }), 'path: README.md\ncontent: # Notes\nline 2\nlines: [1,2]');
    assert.equal(previewValue([1, 'a']), '[1,"a"]');
    assert.equal(previewValue({ big: 10n }), 'big: 10');
    assert.match(previewValue('x'.repeat(700), 600), /… \(100 more characters\)$/);
  });
});

describe('planTreeModel over a run snapshot', () => {
  const state = run({
    a: { status: 'completed', attempts: 1, durationMs: 1200, result: 'file text' },
    b: { status: 'awaiting_approval', attempts: 2, pending: { id: 'b@1', fingerprint: 'f', stepId: 'b', kind: 'approval', prompt: 'Write y?' } },
    c: { status: 'failed', attempts: 1, error: 'no answer', diagnosis: 'predicate false' },
  });

  it('shows status icon, colour, description and context value per step', () => {
    const nodes = planTreeModel(plan, 'flat', state);
    assert.deepEqual(
      nodes.map((node) => [node.icon, node.color, node.description, node.contextValue]),
      [
        ['pass-filled', 'testing.iconPassed', 'read_file · completed · 1.2 s', 'step.tool.completed'],
        ['shield', 'charts.yellow', 'write_file · awaiting approval · attempt 2/3', 'step.tool.awaiting_approval'],
        ['error', 'testing.iconFailed', 'clarification · failed', 'step.clarification.failed'],
      ],
    );
  });

  it('puts input, result, error, diagnosis and the pending prompt in tooltips', () => {
    const [a, b, c] = planTreeModel(plan, 'flat', state);
    assert.match(a!.tooltip, /Result: file text/);
    assert.match(b!.tooltip, /Waiting for: Write y\?/);
    assert.match(b!.tooltip, /Arguments: .*"path":"y"/);
    assert.match(c!.tooltip, /Error: no answer/);
    assert.match(c!.tooltip, /Diagnosis: predicate false/);
  });

  it('keeps node ids stable across snapshots so views can refresh single items', () => {
    const before = planTreeModel(plan, 'levels', run({ a: { status: 'running', attempts: 1 } }));
    const after = planTreeModel(plan, 'levels', run({ a: { status: 'completed', attempts: 1, durationMs: 5 } }));
    const change = diffTrees(before, after);
    assert.equal(change.kind, 'nodes');
    assert.deepEqual(change.kind === 'nodes' && change.changed.map((node) => node.id), ['step:a']);
    assert.deepEqual(diffTrees(after, after), { kind: 'nodes', changed: [] });
    assert.deepEqual(diffTrees(before, planTreeModel(plan, 'flat')), { kind: 'structure' });
    assert.deepEqual([...indexTree(after).keys()], ['level:0', 'step:a', 'step:c', 'level:1', 'step:b']);
  });
});
