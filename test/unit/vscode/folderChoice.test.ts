import assert from 'node:assert/strict';
import { chooseFolder, type FolderLike } from '../../../src/vscode/folderChoice';

const folder = (name: string): FolderLike => ({ name, uri: { toString: () => `file:///work/${name}` } });
const api = folder('api');
const web = folder('web');
const docs = folder('docs');
// The same folder as VS Code hands it out again: another object, the same URI.
const webAgain = folder('web');

describe('chooseFolder', () => {
  it('says there is no folder in a window without one', () => {
    assert.deepEqual(chooseFolder([], { files: [api], editor: api }), { kind: 'none' });
  });

  it('takes the only folder without asking, whatever the editor or files say', () => {
    assert.deepEqual(chooseFolder([api], {}), { kind: 'folder', folder: api });
    assert.deepEqual(chooseFolder([api], { files: [undefined], editor: undefined }), { kind: 'folder', folder: api });
  });

  it('takes the folder of the given files over the active editor', () => {
    assert.deepEqual(chooseFolder([api, web], { files: [webAgain, web], editor: api }), { kind: 'folder', folder: web });
  });

  it('refuses files from two folders, naming them in workspace order', () => {
    assert.deepEqual(chooseFolder([api, web, docs], { files: [docs, api, docs], editor: web }), { kind: 'spread', names: ['api', 'docs'] });
  });

  it('ignores files outside every folder when the others agree, and falls back to the editor when none is in a folder', () => {
    assert.deepEqual(chooseFolder([api, web], { files: [undefined, web] }), { kind: 'folder', folder: web });
    assert.deepEqual(chooseFolder([api, web], { files: [undefined], editor: webAgain }), { kind: 'folder', folder: web });
  });

  it("takes the active editor's folder when no files are given", () => {
    assert.deepEqual(chooseFolder([api, web], { files: [], editor: webAgain }), { kind: 'folder', folder: web });
  });

  it('asks among every folder when nothing tells (no editor, or an editor outside the folders)', () => {
    assert.deepEqual(chooseFolder([api, web], {}), { kind: 'ask', folders: [api, web] });
    assert.deepEqual(chooseFolder([api, web], { editor: docs }), { kind: 'ask', folders: [api, web] });
  });
});
