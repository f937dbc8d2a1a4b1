import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeWorkspace } from '../../../src/node/nodeWorkspace';
import type { NodeFileSystem } from '../../../src/node/nodeWorkspace';

describe('createNodeWorkspace: a change lands whole across a power loss', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-ws-durable-'));
    fs.writeFileSync(path.join(dir, 'keep.txt'), 'original\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('attack: syncs the new content to disk before renaming it over the file', async () => {
    // Renamed unsynced, a power loss can leave the rename on disk and not the bytes: an empty or cut file where the user's
    // was, neither the old version nor the new one (file systems order a rename before the data it names).
    const events: string[] = [];
    const fileSystem: NodeFileSystem = {
      ...fs.promises,
      open: async (...args: Parameters<typeof fs.promises.open>) => {
        const handle = await fs.promises.open(...args);
        const sync = handle.sync.bind(handle);
        handle.sync = async () => {
          events.push('sync');
          await sync();
        };
        return handle;
      },
      rename: async (from, to) => {
        events.push('rename');
        await fs.promises.rename(from, to);
      },
    };
    await createNodeWorkspace(dir, { fileSystem }).writeText('keep.txt', 'new content\n');
    assert.equal(fs.readFileSync(path.join(dir, 'keep.txt'), 'utf8'), 'new content\n');
    assert.deepEqual(events.slice(-2), ['sync', 'rename']);
  });
});
