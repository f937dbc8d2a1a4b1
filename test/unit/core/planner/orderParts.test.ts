import assert from 'node:assert/strict';
import { orderParts, type PartTraits } from '../../../../src/core/planner/orderParts';

const part = (patch: Partial<PartTraits> = {}): PartTraits => ({
  follows: false,
  question: false,
  refersBack: false,
  readOnly: false,
  checks: false,
  paths: [],
  ...patch,
});

describe('orderParts', () => {
  it('runs a list in its order, reads next to each other side by side', () => {
    assert.deepEqual(orderParts([part(), part(), part({ checks: true })], false), { order: [0, 1, 2], dependsOn: [[], [0], [1]] });
    assert.deepEqual(orderParts([part(), part({ readOnly: true }), part({ readOnly: true }), part()], false).dependsOn, [[], [0], [0], [1, 2]]);
  });

  it('runs parts that change disjoint files side by side, a command after all of them', () => {
    const parts = [part({ paths: ['src/a.ts'] }), part({ paths: ['docs/'] }), part({ checks: true })];
    assert.deepEqual(orderParts(parts, false).dependsOn, [[], [], [0, 1]]);
    assert.deepEqual(orderParts([part({ paths: ['docs'] }), part({ paths: ['docs/a.md'] })], false).dependsOn, [[], [0]], 'a folder and a file in it overlap');
    assert.deepEqual(orderParts([part({ paths: ['a.ts'] }), part()], false).dependsOn, [[], [0]], 'a part naming no file may touch any');
  });

  it('with "in parallel", keeps only the order the text gives: "then", "it", a shared path, a command', () => {
    const parts = [part({ paths: ['a.ts'] }), part(), part({ follows: true }), part({ refersBack: true }), part({ paths: ['a.ts'] }), part({ checks: true })];
    assert.deepEqual(orderParts(parts, true).dependsOn, [[], [], [0, 1], [2], [0, 1], [3, 4]]);
  });

  it('asks a question first and makes the work after it wait, once; a question that refers back stays in its place', () => {
    const asked = orderParts([part(), part({ question: true }), part(), part()], false);
    assert.deepEqual(asked, { order: [1, 0, 2, 3], dependsOn: [[], [], [0, 1], [2]] });
    assert.deepEqual(orderParts([part(), part({ question: true, refersBack: true }), part()], false), { order: [0, 1, 2], dependsOn: [[], [0], [1]] });
    assert.deepEqual(orderParts([part(), part({ question: true }), part()], true).dependsOn, [[], [], [1]]);
  });
});
