import assert from 'node:assert/strict';
import { newTenth, percentOf, progressText, wholePercent } from '../../../src/shared/progressPercent';

describe('progressPercent: how far a long step is, only when its work says so', () => {
  it('a whole number within 0–100, rounded down; anything that is not a finite number is no percentage', () => {
    assert.deepEqual(
      [45.9, 0, 100, -3, 250, 99.999].map((value) => wholePercent(value)),
      [45, 0, 100, 0, 100, 99],
    );
    assert.deepEqual([Number.NaN, Infinity, -Infinity, '45', undefined, null].map(wholePercent), [undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('done of a total, unknown without a positive total (an MCP server that gives none)', () => {
    assert.equal(percentOf(3, 4), 75);
    assert.equal(percentOf(1, 3), 33);
    assert.equal(percentOf(58, 200), 29, "58 of 200 is 29 %, not the 28 that (58 / 200) * 100 = 28.999… gives");
    assert.equal(percentOf(5, 4), 100);
    assert.equal(percentOf(3, undefined), undefined);
    assert.equal(percentOf(3, 0), undefined);
    assert.equal(percentOf(3, -1), undefined);
    assert.equal(percentOf(3, Number.NaN), undefined);
  });

  it('shows the percentage before the line when known, the line alone when not', () => {
    assert.equal(progressText('running pytest -q', 45), '45% · running pytest -q');
    assert.equal(progressText('running pytest -q', 0), '0% · running pytest -q');
    assert.equal(progressText('turn 3 of 12', undefined), 'turn 3 of 12');
  });

  it('a new tenth: the first known percentage, then each time it passes 10, 20, …', () => {
    assert.equal(newTenth(undefined, 3), true);
    assert.equal(newTenth(3, 9), false);
    assert.equal(newTenth(9, 10), true);
    assert.equal(newTenth(10, 19), false);
    assert.equal(newTenth(19, 35), true);
    assert.equal(newTenth(100, 100), false);
  });
});
