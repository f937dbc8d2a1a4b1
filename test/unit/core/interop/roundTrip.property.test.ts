import assert from 'node:assert/strict';
import fc from 'fast-check';
import { exportTaskFile, importTaskFile } from '../../../../src/core/interop/importTaskFile';
import { interopFormats } from '../../../../src/core/interop/interopFormats';
import { withStepDefaults, type Plan } from '../../../../src/core/plan/planSchema';

/** A plan like one from anywhere: titled steps, any dependencies on earlier steps, some skipped. */
const randomPlan: fc.Arbitrary<Plan> = fc
  .array(
    fc.record({
      title: fc.stringMatching(/^[A-Z][a-z]{1,8}(?: [a-z]{1,8}){0,4}(?: in src\/[a-z]{1,6}\.ts)?$/),
      done: fc.boolean(),
      dependsOn: fc.array(fc.nat(), { maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .map((rows) => ({
    id: 'plan-random',
    version: 1,
    objective: 'Random plan',
    createdAt: new Date(0).toISOString(),
    agents: {},
    steps: rows.map((row, index) =>
      withStepDefaults({
        id: `step-${index}`,
        kind: 'manual',
        title: row.title,
        input: row.title,
        dependsOn: index === 0 ? [] : [...new Set(row.dependsOn.map((n) => `step-${n % index}`))],
        ...(row.done ? { skipped: true } : {}),
      }),
    ),
  }));

/** Steps by place: title, done, and the places of their dependencies. */
function structure(plan: Plan): string[] {
  const place = new Map(plan.steps.map((step, index) => [step.id, index]));
  return plan.steps.map((step) => `${step.title}|${step.skipped === true}|${step.dependsOn.map((id) => place.get(id)).sort().join(',')}`);
}

describe('task file round trip (property)', () => {
  for (const format of interopFormats) {
    it(`a plan written as ${format} reads back with its steps, order, dependencies and ticks, and writes the same file again`, () => {
      fc.assert(
        fc.property(randomPlan, (plan) => {
          const text = exportTaskFile(plan, format);
          const back = importTaskFile(`plan.${format}`, text, { model: false, format });
          assert.ok(back.ok, text);
          assert.deepEqual(structure(back.plan), structure(plan), text);
          const again = importTaskFile(`plan.${format}`, exportTaskFile(back.plan, format), { model: false, format });
          assert.ok(again.ok);
          assert.deepEqual(again.plan.steps.map((step) => [step.id, step.dependsOn]), back.plan.steps.map((step) => [step.id, step.dependsOn]));
        }),
        { numRuns: 150 },
      );
    });
  }
});
