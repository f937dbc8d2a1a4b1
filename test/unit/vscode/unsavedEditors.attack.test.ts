import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeWorkspace } from '../../../src/node/nodeWorkspace';
import { memoryChangeLocks } from '../../fakes/memoryChangeLocks';
import { MemoryRawFs } from '../../fakes/memoryRawFs';
import { requireWithVscode } from '../../fakes/requireWithVscode';
import type * as UnsavedEditorsModule from '../../../src/vscode/unsavedEditors';

/** A document of the fake editor: its file and whether it has unsaved changes. */
interface FakeDocument {
  uri: { scheme: string; fsPath: string; toString(): string };
  isDirty: boolean;
  save(): Promise<boolean>;
}
const fileUri = (file: string): FakeDocument['uri'] => ({ scheme: 'file', fsPath: file, toString: () => `file://${file}` });
const documents: FakeDocument[] = [];

const { guardUnsavedEditors } = requireWithVscode<typeof UnsavedEditorsModule>(require.resolve('../../../src/vscode/unsavedEditors'), {
  Uri: { file: fileUri },
  workspace: {
    get textDocuments() {
      return documents;
    },
    onDidSaveTextDocument: () => ({ dispose: () => undefined }),
  },
});

const dirty = (file: string): FakeDocument => {
  const document: FakeDocument = { uri: fileUri(file), isDirty: true, save: async () => ((document.isDirty = false), true) };
  documents.push(document);
  return document;
};

// Outside attack (2026-12-07): the question before a change of a file open with unsaved changes looked for a document of
// exactly the path the step named: a step writing `alias.md` (a link to `notes.md`, in the workspace) or `notes.md` while
// the user typed in `alias.md` wrote over the typing unasked, the editor then offering to overwrite the step's change.
describe('guardUnsavedEditors: a file open with unsaved changes under another name (attack)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-unsaved-')));
    documents.length = 0;
    fs.writeFileSync(path.join(dir, 'notes.md'), 'on disk\n');
    fs.symlinkSync('notes.md', path.join(dir, 'alias.md'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const workspaceAsking = (answers: string[]) =>
    guardUnsavedEditors(createNodeWorkspace(dir, { changeLocks: memoryChangeLocks(new MemoryRawFs('/')) }), dir, async (_document, relative) => {
      answers.push(relative);
      return 'keep';
    });

  it('asks before a write through a link to the file open with unsaved changes, and keeps them', async () => {
    dirty(path.join(dir, 'notes.md'));
    const asked: string[] = [];
    await assert.rejects(workspaceAsking(asked).writeText('alias.md', 'the step\n'), /alias\.md is open in the editor with unsaved changes/);
    assert.deepEqual(asked, ['alias.md']);
    assert.equal(fs.readFileSync(path.join(dir, 'notes.md'), 'utf8'), 'on disk\n');
  });

  it('asks before a write or a deletion of the file a link open with unsaved changes leads to', async () => {
    dirty(path.join(dir, 'alias.md'));
    const asked: string[] = [];
    const workspace = workspaceAsking(asked);
    await assert.rejects(workspace.writeText('notes.md', 'the step\n'), /unsaved changes/);
    await assert.rejects(workspace.delete('notes.md'), /unsaved changes/);
    assert.deepEqual(asked, ['notes.md', 'notes.md']);
    assert.equal(fs.readFileSync(path.join(dir, 'notes.md'), 'utf8'), 'on disk\n');
  });

  it('lets a change of another file through, and a file whose document has no unsaved changes', async () => {
    fs.writeFileSync(path.join(dir, 'other.md'), 'other\n');
    dirty(path.join(dir, 'other.md')).isDirty = false;
    dirty(path.join(dir, 'notes.md'));
    const asked: string[] = [];
    await workspaceAsking(asked).writeText('other.md', 'the step\n');
    assert.deepEqual(asked, []);
    assert.equal(fs.readFileSync(path.join(dir, 'other.md'), 'utf8'), 'the step\n');
  });
});
