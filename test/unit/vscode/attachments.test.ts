import assert from 'node:assert/strict';
import { requireWithVscode } from '../../fakes/requireWithVscode';
import type * as AttachmentsModule from '../../../src/vscode/attachments';

/** The editor in front, as `window.activeTextEditor` gives it: a file of the workspace with `selected` selected. */
let editor: unknown;
const selectedIn = (path: string, selected: string): unknown => ({
  selection: { isEmpty: false, start: { line: 2 }, end: { line: 3 } },
  document: { uri: { scheme: 'file', path: `/work/${path}` }, getText: () => selected },
});

// `collectAttachments` needs the active editor and the workspace's folder and relative paths besides the l10n fake.
const { collectAttachments } = requireWithVscode<typeof AttachmentsModule>(require.resolve('../../../src/vscode/attachments'), {
  window: {
    get activeTextEditor() {
      return editor;
    },
  },
  workspace: {
    getWorkspaceFolder: () => ({ name: 'work' }),
    asRelativePath: (uri: { path: string }) => uri.path.replace(/^\/work\//, ''),
  },
});

describe('collectAttachments: the selection a request carries', () => {
  it('carries a selection of an ordinary file with its text, as it was when the request was made', () => {
    editor = selectedIn('src/app.ts', 'export function main() {}');
    assert.deepEqual(collectAttachments('Document this', []), [
      { kind: 'file', ref: 'src/app.ts#L3-L4', label: 'selection in src/app.ts (lines 3-4)', text: 'export function main() {}' },
    ]);
  });

  // Found while attacking planning (2026): no model was given it, but the text was in the plan, its journal and a saved plan file.
  it('attack: a selection in .env, a key or .git goes by its name only, never with its text', () => {
    for (const path of ['.env', 'config/.env.production', 'keys/server.key', '.git/config']) {
      editor = selectedIn(path, 'DB_PASSWORD=hunter2');
      const [selection] = collectAttachments('Use these settings', []);
      assert.equal(selection?.ref, `${path}#L3-L4`);
      assert.equal(selection && 'text' in selection, false, `the text of ${path} was carried`);
    }
  });
});
