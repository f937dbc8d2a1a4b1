import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..');
const door = 'src/vscode/notifications.ts';

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('architecture: every notification goes through the door that keeps its text from forming a link', () => {
  it('calls none of the editor\'s message or progress functions outside src/vscode/notifications.ts', () => {
    // A notification renders [label](command:…) in its message, a progress notification in its title: found by an outside attack,
    // where a plan's path in a failure reason became a link whose click typed a shell command into the terminal.
    const direct = /\.\s*(showInformationMessage|showWarningMessage|showErrorMessage|withProgress)\b/;
    const offenders = sources(join(root, 'src'))
      .map((path) => relative(root, path).split('\\').join('/'))
      .filter((path) => path !== door && direct.test(readFileSync(join(root, path), 'utf8')));
    assert.deepEqual(offenders, []);
  });

  it('finds a call where it is (the check can fail)', () => {
    assert.match(readFileSync(join(root, door), 'utf8'), /vscode\.window\.showWarningMessage\(/);
  });
});
