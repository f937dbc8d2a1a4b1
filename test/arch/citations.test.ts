import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..');

/** Every TypeScript, JavaScript and Markdown file the project itself writes under `folder`. */
function ownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return ['node_modules', '.cache', 'fixtures', 'incremental'].includes(entry.name) ? [] : ownFiles(path);
    return /\.(ts|mjs|cjs|md)$/.test(entry.name) ? [path] : [];
  });
}

describe('architecture: the repository documents itself', () => {
  it('cites docs/architecture.md, never a design document outside the repository', () => {
    const outside = /\bDESIGN(\.md| §)/;
    const citing = ['src', 'webview', 'test', 'scripts', 'docs']
      .flatMap((folder) => ownFiles(join(root, folder)))
      .concat(join(root, 'README.md'))
      .filter((path) => path !== __filename && outside.test(readFileSync(path, 'utf8')))
      .map((path) => relative(root, path));
    assert.deepEqual(citing, [], 'these files cite a document outside the repository; cite docs/architecture.md instead');
  });
});
