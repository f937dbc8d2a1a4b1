import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createSessionPlanner } from '../../../../src/core/session/createSessionPlanner';
import { planningStrategies, renderPlanningSection } from '../../../../src/core/session/planningPrompt';

const snapshotDir = path.join(__dirname, '__snapshots__');

/** Compares with the stored snapshot; `UPDATE_SNAPSHOTS=1` rewrites it (review the diff before committing). */
function matchSnapshot(name: string, actual: string): void {
  const file = path.join(snapshotDir, `${name}.txt`);
  if (process.env.UPDATE_SNAPSHOTS === '1') {
    fs.mkdirSync(snapshotDir, { recursive: true });
    fs.writeFileSync(file, actual);
  }
  assert.ok(fs.existsSync(file), `No snapshot ${file}; run with UPDATE_SNAPSHOTS=1 and review it`);
  assert.equal(actual, fs.readFileSync(file, 'utf8'));
}

describe('planning prompt section', () => {
  for (const strategy of planningStrategies) {
    it(`renders the instructions for ${strategy}`, () => {
      matchSnapshot(`planningPrompt.${strategy}`, renderPlanningSection(strategy));
    });
  }

  it('uses react by default, which adds no strategy lines, and the others only add lines', () => {
    const react = renderPlanningSection();
    assert.equal(react, renderPlanningSection('react'));
    assert.doesNotMatch(react, /Strategy:/);
    for (const strategy of planningStrategies) assert.ok(renderPlanningSection(strategy).startsWith(react));
  });

  it('is ASCII only and names every planning tool', () => {
    for (const strategy of planningStrategies) assert.match(renderPlanningSection(strategy), /^[\x20-\x7e\n]*$/);
    for (const name of ['planning_setup_plan', 'planning_add_step', 'planning_update_step', 'planning_mark_step', 'planning_clear_plan', 'planning_read_plan']) {
      assert.ok(renderPlanningSection().includes(name), name);
    }
  });

  it('appends the current plan when the planner has one', () => {
    const planner = createSessionPlanner();
    planner.setupPlan({ objective: 'Write docs', initialSteps: [{ title: 'Outline', details: 'three sections' }, { title: 'Draft' }] });
    planner.markStep({ stepId: 'S001', status: 'in_progress', note: 'started' });
    matchSnapshot('planningPrompt.plan_act_reflect.withPlan', planner.render('plan_act_reflect'));
  });
});
