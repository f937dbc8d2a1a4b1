import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { evaluatePredicate } from '../../../../src/core/predicate/evaluatePredicate';

describe('predicate values that only coerce to true (attack)', () => {
  it('passes only on the boolean true: an object whose copy reads true (toJSON, a Boolean object, a getter) fails as unexpected', async () => {
    for (const expr of ['({ toJSON() { return true; } })', 'new Boolean(true)', 'Object(true)', '({ valueOf() { return true; }, toJSON: () => true })']) {
      const outcome = await evaluatePredicate(expr, { result: 'not done' });
      assert.equal(outcome.kind, 'fail', `${expr} read as ${JSON.stringify(outcome)}`);
      assert.match(outcome.kind === 'fail' ? outcome.diagnosis : '', /returned an unexpected value/);
    }
    // An object whose copy reads false is no longer read as a plain false either, but it still fails.
    assert.equal((await evaluatePredicate('new Boolean(false)', {})).kind, 'fail');
    assert.deepEqual(await evaluatePredicate('true', {}), { kind: 'pass' });
    assert.deepEqual(await evaluatePredicate('!!new Boolean(false)', {}), { kind: 'pass' });
  });
});
