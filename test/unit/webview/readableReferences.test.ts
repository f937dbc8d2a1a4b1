import assert from 'node:assert/strict';
import { readableReferences } from '../../../webview/readableReferences';

describe('readableReferences (the review card\'s Input)', () => {
  it('reads a reference to a command\'s output, error output or exit code as words (a newcomer read {{results.S001.stdout}} as code)', () => {
    assert.equal(
      readableReferences('Fix any failures\n\nWhat `npm test` printed (exit code {{results.S001.exitCode}}):\n{{results.S001.stdout}}\n{{results.S001.stderr}}'),
      "Fix any failures\n\nWhat `npm test` printed (exit code [S001's exit code]):\n[S001's output]\n[S001's error output]",
    );
  });

  it('leaves any other text and reference as written', () => {
    for (const text of ['{{results.S001}}', '{{results.S001.answer}}', '{{ results.S001.stdout }}', 'plain text', `{{results.${'x'.repeat(65)}.stdout}}`]) {
      assert.equal(readableReferences(text), text, text);
    }
  });
});
