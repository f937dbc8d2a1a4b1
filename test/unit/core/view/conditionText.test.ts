import assert from 'node:assert/strict';
import { conditionText } from '../../../../src/core/view/conditionText';
import { fixNeeded } from '../../../../src/core/planner/testAndFix';

describe('conditionText', () => {
  it('says in words when a fix runs: the command before it did not pass (a newcomer read depends["S001"].exitCode !== 0 || …)', () => {
    assert.deepEqual(conditionText(fixNeeded('S001', ['npm', 'test'])), { text: '`npm test` (step S001) did not pass', code: false });
    assert.deepEqual(conditionText(fixNeeded('T"1', ['pytest', '-k', 'a "b"'])), { text: '`pytest -k a "b"` (step T"1) did not pass', code: false });
  });

  it('shows any other condition as its code, also one that only resembles the planner\'s', () => {
    for (const when of ['depends.R.ok', 'depends["S1"].exitCode !== 0', `${fixNeeded('S1', ['npm', 'test'])} && false`, fixNeeded('S1', ['npm', 'test']).replace('"S1"].timedOut', '"S2"].timedOut')]) {
      assert.deepEqual(conditionText(when), { text: when, code: true }, when);
    }
  });
});
