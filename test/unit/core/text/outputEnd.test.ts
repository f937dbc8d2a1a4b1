import assert from 'node:assert/strict';
import { outputEndLine } from '../../../../src/core/text/outputEnd';

describe('outputEndLine: a failed check on one line, by the end of its output', () => {
  it('keeps what the check says and the last lines of the output, where a runner says why it failed', () => {
    const output = ['> app@1.0.0 test', '> node --test', ...Array.from({ length: 20 }, (_, index) => `✔ case ${index}`), '✖ adds', '# fail 1'].join('\n');
    const line = outputEndLine(`exit code 1, expected 0; last output: ${output}`, 100) ?? '';
    assert.ok(line.length <= 100, line);
    assert.match(line, /^exit code 1, expected 0; last output: … .*✖ adds \| # fail 1$/);
  });

  it('says a short one whole, marks the checks after it, and leaves other texts to their start', () => {
    assert.equal(outputEndLine('exit code 2; last output: boom', 100), 'exit code 2; last output: boom');
    assert.equal(
      outputEndLine('Check 1 (command `a`) failed: exit code 1; last output: x\ny\nCheck 2 (file exists `b`) failed: no file', 100),
      'Check 1 (command `a`) failed: exit code 1; last output: x y …',
    );
    assert.equal(outputEndLine('Command npm test exited with code 1.\n> app test', 100), undefined);
  });

  it('reads no more than the ends of a 5 MB output, and bounds a last line longer than the line', () => {
    const line = outputEndLine(`exit code 1; last output: ${'a'.repeat(5_000_000)}\n${'z'.repeat(500)}`, 80) ?? '';
    assert.ok(line.length <= 80 && line.endsWith('zzz'), line);
  });
});
