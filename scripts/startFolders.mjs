// The folders `npm start` uses (scripts/start.mjs): kept in .npm-start/ at the repository's root between starts, so the
// settings made in the editor (Set up a model, any other), its state and the demo workspace with its runs are there
// at the next start; `--fresh` starts over from nothing.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The user-data folder and the workspace of `npm start`: `<root>/.npm-start/user-data` and, unless `folder` names one
 * (opened as it is), `<root>/.npm-start/demo-workspace`, copied from test/fixtures/demo-workspace only when absent.
 * `fresh` removes .npm-start/ first.
 * @param {string} root the repository's root
 * @param {{ folder?: string, fresh?: boolean }} options
 * @returns {{ userDataDir: string, workspace: string, copiedDemo: boolean }}
 */
export function startFolders(root, options) {
  const kept = join(root, '.npm-start');
  if (options.fresh) rmSync(kept, { recursive: true, force: true });
  const userDataDir = join(kept, 'user-data');
  if (options.folder) return { userDataDir, workspace: resolve(options.folder), copiedDemo: false };
  const workspace = join(kept, 'demo-workspace');
  const copiedDemo = !existsSync(workspace);
  if (copiedDemo) cpSync(join(root, 'test', 'fixtures', 'demo-workspace'), workspace, { recursive: true });
  return { userDataDir, workspace, copiedDemo };
}
