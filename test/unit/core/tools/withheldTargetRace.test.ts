import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { attachmentSection } from '../../../../src/core/agent/attachmentSection';
import { readCapabilities } from '../../../../src/core/capabilities/readCapabilities';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import { searchTextTool } from '../../../../src/core/tools/searchTextTool';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

// An outside attack: a committed `notes.txt -> data.txt` passes the check of where it leads, and a racing local process
// points it at `.env` before the read. The race is won here every time: the link is retargeted right after the check
// (`locate`, which every withheld check asks) returns, so each test shows what the read itself does.
describe('a link retargeted to a withheld file between the check and the read', () => {
  let root: string;
  const secret = 'DB_PASSWORD=hunter2';
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-withheld-race-'));
    fs.writeFileSync(path.join(root, '.env'), `${secret}\n`);
    fs.writeFileSync(path.join(root, 'data.txt'), 'plain data\n');
    fs.mkdirSync(path.join(root, '.git'));
    fs.writeFileSync(path.join(root, '.git', 'config'), `[remote]\n  url = https://token:${secret}@example.com\n`);
    fs.symlinkSync('data.txt', path.join(root, 'notes.txt'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  /** The node workspace, where `change` is made right after each time `located` is located. */
  function changedAfterLocating(located: string, change: () => void): WorkspaceFs {
    const node = createNodeWorkspace(root);
    const locate = node.locate?.bind(node) ?? assert.fail('the node workspace locates paths');
    return {
      ...node,
      locate: async (input, signal) => {
        const at = await locate(input, signal);
        if (input === located) change();
        return at;
      },
    };
  }
  /** The node workspace, with `change` made once a listing has been made (before anything listed is read). */
  function changedAfterListing(change: () => void): WorkspaceFs {
    const node = createNodeWorkspace(root);
    return {
      ...node,
      list: async (glob, signal) => {
        const listing = await node.list(glob, signal);
        change();
        return listing;
      },
    };
  }
  /** Makes `link` (a file, folder or link) a link to `target`. */
  const relink = (link: string, target: string) => (): void => {
    fs.rmSync(path.join(root, link), { recursive: true });
    fs.symlinkSync(target, path.join(root, link));
  };
  const retargetedAfterCheck = (target: string): WorkspaceFs => changedAfterLocating('notes.txt', relink('notes.txt', target));

  it('read_file refuses, says where the link led, and reports the file kept', async () => {
    for (const target of ['.env', '.git/config']) {
      relink('notes.txt', 'data.txt')();
      const kept: string[] = [];
      const ctx = makeToolContext({ workspace: retargetedAfterCheck(target), withheld: (file) => kept.push(file) });
      await assert.rejects(readFileTool.run(ctx, { path: 'notes.txt' }, neverAborted), (error: unknown) => {
        assert.ok(error instanceof PathRefusedError, String(error));
        assert.match(error.message, new RegExp(`^Refused path "notes.txt": it leads to ${target.replace('.', '\\.')}: `));
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      });
      assert.deepEqual(kept, [target]);
    }
  });

  it('search_text leaves it unread: no match, no count that tells the guess of the secret', async () => {
    const kept: string[] = [];
    const ctx = makeToolContext({ workspace: retargetedAfterCheck('.git/config'), withheld: (file) => kept.push(file) });
    const result = await searchTextTool.run(ctx, { query: 'token:DB_PASSWORD=hunter2', maxMatches: 1 }, neverAborted);
    assert.deepEqual(result.matches, []);
    assert.equal(result.truncated, false);
    assert.deepEqual(kept.sort(), ['.env', '.git/config'], 'the .env listed, and the file the read of notes.txt was refused');
  });

  it('search_text does not read through a folder swapped for a link into .git either', async () => {
    fs.mkdirSync(path.join(root, 'docs'));
    fs.writeFileSync(path.join(root, 'docs', 'config'), 'nothing here\n');
    // Swapped once listed: a file listed as no link is not located (only a link can lead elsewhere), and its read is judged.
    const workspace = changedAfterListing(relink('docs', '.git'));
    const kept: string[] = [];
    const ctx = makeToolContext({ workspace, withheld: (file) => kept.push(file) });
    const result = await searchTextTool.run(ctx, { query: 'hunter2' }, neverAborted);
    assert.deepEqual(result.matches.map((match) => match.path), []);
    assert.ok(kept.includes('.git/config'), kept.join());
  });

  it('an attached file is not included in the prompt', async () => {
    const section = await attachmentSection([{ kind: 'file', ref: 'notes.txt' }], retargetedAfterCheck('.env'), neverAborted);
    assert.doesNotMatch(section.text, /hunter2/);
    assert.match(section.text, /notes\.txt: not included: .*it leads to \.env/);
  });

  it('an instruction file (AGENTS.md) is left out of every prompt, saying why', async () => {
    fs.renameSync(path.join(root, 'notes.txt'), path.join(root, 'AGENTS.md'));
    const workspace = changedAfterLocating('AGENTS.md', relink('AGENTS.md', '.env'));
    const catalogue = await readCapabilities(workspace);
    assert.doesNotMatch(JSON.stringify(catalogue.instructions), /hunter2/);
    assert.deepEqual(catalogue.instructions, []);
    assert.match(catalogue.diagnostics.find((diagnostic) => diagnostic.file === 'AGENTS.md')?.message ?? '', /^It was left out: it leads to \.env: a file of this name/);
  });

  it('a file the check saw as it is read is read (the control)', async () => {
    const ctx = makeToolContext({ workspace: retargetedAfterCheck('data.txt') });
    const read = await readFileTool.run(ctx, { path: 'notes.txt' }, neverAborted);
    assert.equal(read.content, 'plain data\n');
  });
});
