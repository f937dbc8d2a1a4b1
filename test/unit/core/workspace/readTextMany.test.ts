import assert from 'node:assert/strict';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { canReadTextMany, fallbackReadAhead, readTextMany } from '../../../../src/core/workspace/readTextMany';
import type { ManyTextReader, TextVisitor } from '../../../../src/core/workspace/readTextMany';
import { WorkspaceError } from '../../../../src/core/workspace/workspaceError';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';

/** What each visit saw: the text, or the error's name and code. */
function recorder(stopAfter = Infinity): { seen: string[]; visit: TextVisitor } {
  const seen: string[] = [];
  return {
    seen,
    visit: (path, text, error) => {
      if (text !== undefined) seen.push(`${path}=${text}`);
      else seen.push(`${path}!${(error as Error).name}${error instanceof WorkspaceError ? `:${error.code}` : ''}`);
      return seen.length < stopAfter;
    },
  };
}

describe('readTextMany', () => {
  const files = { 'a.txt': 'alpha', 'dir/b.txt': 'beta', 'big.txt': 'x'.repeat(50), 'z.txt': 'zulu' };

  it('falls back to readText: every path in order, with its text or the error readText gave', async () => {
    const workspace = createMemoryWorkspace(files);
    assert.equal(canReadTextMany(workspace), false);
    const { seen, visit } = recorder();
    await readTextMany(workspace, ['z.txt', 'missing.txt', 'dir', 'big.txt', '../outside.txt', '/etc/passwd', 'a.txt', 'dir/b.txt'], visit, undefined, { maxBytes: 10 });
    assert.deepEqual(seen, [
      'z.txt=zulu',
      'missing.txt!WorkspaceError:not_found',
      'dir!WorkspaceError:is_directory',
      'big.txt!WorkspaceError:too_large',
      '../outside.txt!PathRefusedError',
      '/etc/passwd!PathRefusedError',
      'a.txt=alpha',
      'dir/b.txt=beta',
    ]);
  });

  it('stops visiting when the visitor returns false, and rejects with what it throws', async () => {
    const workspace = createMemoryWorkspace(files);
    const { seen, visit } = recorder(2);
    await readTextMany(workspace, ['a.txt', 'dir/b.txt', 'z.txt'], visit);
    assert.deepEqual(seen, ['a.txt=alpha', 'dir/b.txt=beta']);
    await assert.rejects(
      readTextMany(workspace, ['a.txt', 'z.txt'], () => {
        throw new Error('visitor failed');
      }),
      /visitor failed/,
    );
  });

  it('keeps at most fallbackReadAhead reads in flight and none after it settles', async () => {
    const many = Object.fromEntries(Array.from({ length: 300 }, (_, index) => [`f${index}.txt`, `${index}`]));
    const inner = createMemoryWorkspace(many);
    let inFlight = 0;
    let most = 0;
    const read: string[] = [];
    const workspace: WorkspaceFs = {
      ...inner,
      readText: async (path, signal, options) => {
        read.push(path);
        most = Math.max(most, ++inFlight);
        try {
          await new Promise<void>((resolve) => setImmediate(resolve));
          return await inner.readText(path, signal, options);
        } finally {
          inFlight--;
        }
      },
    };
    const { seen, visit } = recorder(150);
    await readTextMany(workspace, Object.keys(many).sort(), visit);
    assert.equal(seen.length, 150);
    assert.equal(most, fallbackReadAhead);
    assert.equal(inFlight, 0);
    read.length = 0;
    await readTextMany(workspace, ['f1.txt', 'f2.txt'], () => undefined);
    assert.deepEqual(read, ['f1.txt', 'f2.txt'], 'each path read once, nothing past the end');
  });

  it('rejects when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const { seen, visit } = recorder();
    await assert.rejects(readTextMany(createMemoryWorkspace(files), ['a.txt'], visit, controller.signal), /stop/);
    assert.deepEqual(seen, []);
  });

  it("uses the workspace's own readTextMany when it has one", async () => {
    const calls: unknown[][] = [];
    const workspace: WorkspaceFs & ManyTextReader = {
      ...createMemoryWorkspace(files),
      readText: () => Promise.reject(new Error('readText should not be called')),
      async readTextMany(paths, visit, _signal, options) {
        calls.push([paths, options]);
        for (const path of paths) visit(path, `bulk:${path}`, undefined);
      },
    };
    assert.equal(canReadTextMany(workspace), true);
    const { seen, visit } = recorder();
    await readTextMany(workspace, ['a.txt', 'z.txt'], visit, undefined, { maxBytes: 5 });
    assert.deepEqual(seen, ['a.txt=bulk:a.txt', 'z.txt=bulk:z.txt']);
    assert.deepEqual(calls, [[['a.txt', 'z.txt'], { maxBytes: 5 }]]);
  });
});
