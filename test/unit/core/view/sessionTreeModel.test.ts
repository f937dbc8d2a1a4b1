import assert from 'node:assert/strict';
import { createSessionPlanner } from '../../../../src/core/session/createSessionPlanner';
import { sessionTreeModel } from '../../../../src/core/view/sessionTreeModel';

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
