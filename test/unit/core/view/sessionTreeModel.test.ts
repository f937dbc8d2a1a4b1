import assert from 'node:assert/strict';
import { createSessionPlanner } from '../../../../src/core/session/createSessionPlanner';
import { sessionTreeModel } from '../../../../src/core/view/sessionTreeModel';
import type { SessionPlan } from '../../../../src/core/session/sessionPlan';

describe('sessionTreeModel', () => {
  it('shows the objective, then each step with status, details and notes', () => {
    const planner = createSessionPlanner();
    planner.setupPlan({ objective: 'Ship it', initialSteps: [{ title: 'Write code', details: 'in src' }, { title: 'Test' }] });
    planner.markStep({ stepId: 'S001', status: 'done', note: 'merged' });
    const nodes = sessionTreeModel(planner.current()!);
    assert.deepEqual(
      nodes.map((node) => [node.label, node.description, node.icon]),
      [
        ['Ship it', 'session plan · active · 1/2 done', 'checklist'],
        ['S001 Write code', 'done', 'pass-filled'],
        ['S002 Test', 'pending', 'circle-large-outline'],
      ],
    );
    assert.match(nodes[1]!.tooltip, /Details: in src\nNote: merged/);
  });
});

describe('sessionTreeModel: the nodes the Plan view shows and its menus act on', () => {
  it('gives the header and every step an id, tooltip, icon and context value; a plan counts only done steps', () => {
    const plan: SessionPlan = {
      objective: 'Ship it',
      status: 'active',
      version: 3,
      steps: [
        { id: 'S001', title: 'Write code', status: 'in_progress', notes: [] },
        { id: 'S002', title: 'Test', details: 'all of it', status: 'blocked', notes: ['waits for CI', 'flaky'] },
      ],
    };
    assert.deepEqual(sessionTreeModel(plan), [
      {
        id: 'session:objective',
        label: 'Ship it',
        description: 'session plan · active · 0/2 done',
        accessibilityLabel: 'Ship it, session plan, active, 0/2 done',
        tooltip: 'Kept by a chat agent through the planning_* tools.\nObjective: Ship it\nStatus: active',
        icon: 'checklist',
        contextValue: 'session.plan',
        children: [],
      },
      {
        id: 'session:S001',
        label: 'S001 Write code',
        description: 'in progress',
        accessibilityLabel: 'S001 Write code, in progress',
        tooltip: 'S001 · in progress',
        icon: 'loading~spin',
        color: 'charts.blue',
        contextValue: 'session.step.in_progress',
        children: [],
      },
      {
        id: 'session:S002',
        label: 'S002 Test',
        description: 'blocked',
        accessibilityLabel: 'S002 Test, blocked',
        tooltip: 'S002 · blocked\nDetails: all of it\nNote: waits for CI\nNote: flaky',
        icon: 'debug-pause',
        color: 'charts.yellow',
        contextValue: 'session.step.blocked',
        children: [],
      },
    ]);
  });

  it('marks a completed plan as passed and an abandoned one as given up', () => {
    const steps = [{ id: 'S001', title: 'Write code', status: 'done' as const, notes: [] }];
    assert.equal(sessionTreeModel({ objective: 'x', status: 'completed', version: 2, steps })[0]?.icon, 'pass-filled');
    assert.equal(sessionTreeModel({ objective: 'x', status: 'abandoned', version: 2, steps })[0]?.icon, 'circle-slash');
    assert.equal(sessionTreeModel({ objective: 'x', status: 'completed', version: 2, steps })[0]?.description, 'session plan · completed · 1/1 done');
  });
});
