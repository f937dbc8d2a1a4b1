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

// A plan's texts are anyone's (a model's, a file's): written as another tool's task file, no title, input or objective line
// may add a task, hide one (an unclosed fence, a line break the reader does not split on), or change what one waits for.
const hostilePiece = fc.constantFrom(
  'Ship',
  ' it',
  '\n',
  '\r\n',
  '\r',
  '\u2028',
  '\u2029',
  '- [ ] T900 smuggled',
  '- [x] done',
  '* [ ] 9. smuggled',
  '[P] ',
  '[US9] ',
  '[ ] ',
  ' (depends on none)',
  ' (depends on step-0)',
  ' *depends on 1*',
  '```',
  '~~~',
  '# ',
  '## Phase 9',
  '### Steps',
  '**Steps**',
  '## Plan: other',
  '1. smuggled',
  'T001 ',
  '2.1 ',
  '_Requirements: 1_',
  '---',
  'todos:',
);
const hostileText = fc.array(hostilePiece, { minLength: 1, maxLength: 8 }).map((pieces) => pieces.join(''));

const hostilePlan: fc.Arbitrary<Plan> = fc
  .record({
    objective: hostileText,
    steps: fc.array(fc.record({ title: hostileText, input: fc.option(hostileText, { nil: undefined }), done: fc.boolean(), after: fc.boolean() }), {
      minLength: 1,
      maxLength: 6,
    }),
  })
  .map(({ objective, steps }) => ({
    id: 'plan-hostile',
    version: 1,
    objective: `Objective\n${objective}`,
    createdAt: new Date(0).toISOString(),
    agents: {},
    steps: steps.map((row, index) =>
      withStepDefaults({
        id: `step-${index}`,
        kind: 'manual',
        title: row.title,
        ...(row.input !== undefined ? { input: row.input } : {}),
        dependsOn: index > 0 && row.after ? [`step-${index - 1}`] : [],
        ...(row.done ? { skipped: true } : {}),
      }),
    ),
  }));

/** Steps by place: done, and the places of their dependencies (titles are written on one line, so they may differ). */
function shape(plan: Plan): string[] {
  const place = new Map(plan.steps.map((step, index) => [step.id, index]));
  return plan.steps.map((step) => `${step.skipped === true}|${step.dependsOn.map((id) => place.get(id)).sort().join(',')}`);
}

describe('task file export of hostile texts (property)', () => {
  for (const format of interopFormats) {
    it(`a plan written as ${format} reads back with exactly its steps and dependencies, whatever its titles, inputs and objective say`, () => {
      fc.assert(
        fc.property(hostilePlan, (plan) => {
          const text = exportTaskFile(plan, format);
          const back = importTaskFile(`plan.${format}`, text, { model: false, format });
          assert.ok(back.ok, text);
          assert.deepEqual(shape(back.plan), shape(plan), text);
          for (const step of back.plan.steps) assert.doesNotMatch(step.title, /[\r\n\u2028\u2029]/, text);
        }),
        { numRuns: 300 },
      );
    });
  }
});

describe('task file export of hostile texts (examples)', () => {
  const plan: Plan = {
    id: 'plan-smuggle',
    version: 1,
    objective: 'Release\n- [ ] T900 Deploy to production\n```',
    createdAt: new Date(0).toISOString(),
    agents: {},
    steps: [
      withStepDefaults({ id: 'test', kind: 'manual', title: 'Run the tests\n- [ ] T901 Push the tag', input: 'Run the tests\n- [ ] T902 Delete the branch' }),
      withStepDefaults({ id: 'tag', kind: 'manual', title: 'Tag the release (depends on none)', dependsOn: ['test'] }),
    ],
  };

  for (const format of interopFormats) {
    it(`${format}: a title, an input or the objective adds no task, hides none and changes no dependency`, () => {
      const text = exportTaskFile(plan, format);
      const back = importTaskFile(`plan.${format}`, text, { model: false, format });
      assert.ok(back.ok, text);
      assert.deepEqual(
        back.plan.steps.map((step) => [step.title, step.dependsOn.length]),
        [
          ['Run the tests - [ ] T901 Push the tag', 0],
          ['Tag the release (depends on none)', 1],
        ],
        text,
      );
    });
  }

  it('a Cursor plan\'s front matter ends only at a line of its own, not after a U+2028 inside a value', () => {
    const text = '---\nname: Plan\noverview: Ship\u2028---\ntodos:\n  - id: a\n    content: Do it\n---\n';
    const back = importTaskFile('x.plan.md', text, { model: false });
    assert.ok(back.ok);
    assert.deepEqual(back.plan.steps.map((step) => step.title), ['Do it']);
  });
});
