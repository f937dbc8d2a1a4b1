import assert from 'node:assert/strict';
import { terminalSafe } from '../../../src/cli/terminalSafe';

describe('terminalSafe', () => {
  it('shows every character a terminal would act on as a visible escape', () => {
    assert.equal(terminalSafe('a\u001b[8mhidden\u001b[0m'), 'a\\u001b[8mhidden\\u001b[0m');
    assert.equal(terminalSafe('line\rover\bx\u0007\u007f\u009b2J'), 'line\\u000dover\\u0008x\\u0007\\u007f\\u009b2J');
    assert.equal(terminalSafe('abc\u202edcba\u2066x\u2069'), 'abc\\u202edcba\\u2066x\\u2069');
  });

  it('keeps tabs, line feeds and ordinary Unicode', () => {
    const text = 'diff\n+\tindented ✔ é 漢字 😀\n';
    assert.equal(terminalSafe(text), text);
  });

  it('keeps JSON valid with the same value', () => {
    const value = { text: 'x\u0085y\u202ez\u001b' };
    assert.deepEqual(JSON.parse(terminalSafe(JSON.stringify(value))), value);
  });
});
