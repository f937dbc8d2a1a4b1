import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import type { Checkpoint } from '../../../../src/core/runStorePorts';
import { undoRun, undoRunChain } from '../../../../src/core/tools/undoRun';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';

const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('attack: undoRun over records it should not take at their word', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-undo-attack-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  // An outside attack: a committed run's record of a deleted file with mode 0o6777 brought it back set-user-ID,
  // set-group-ID and writable by everyone, which no clone can make (git keeps 644 or 755).
  it('brings a deleted file back with its read, write and execute bits only: no set-user-ID, set-group-ID or sticky bit', async () => {
    const text = '#!/bin/sh\necho old\n';
    const record: Checkpoint = {
      runId: 'r',
      stepId: 'del',
      seq: 1,
      path: 'tools/old.sh',
      operation: 'delete',
      before: { exists: true, text, sha256: sha(text), mode: 0o6755 },
      afterSha256: undefined,
      state: 'applied',
    };
    fs.mkdirSync(path.join(dir, 'tools'));
    const report = await undoRun('r', { workspace: createNodeWorkspace(dir), checkpoints: createMemoryCheckpointStore([record]) });
    assert.deepEqual(report.restored, ['tools/old.sh']);
    assert.equal(fs.statSync(path.join(dir, 'tools', 'old.sh')).mode & 0o7777, 0o755);
  });

  it('names each file whose only record the store does not vouch for, and writes none of them', async () => {
    fs.writeFileSync(path.join(dir, 'package.json'), 'now\n');
    const forged: Checkpoint = {
      runId: 'r',
      stepId: 'bump',
      seq: 1,
      path: 'package.json',
      operation: 'edit',
      before: { exists: true, text: 'evil\n', sha256: sha('evil\n') },
      afterSha256: sha('now\n'),
      state: 'applied',
    };
    const memory = createMemoryCheckpointStore();
    const checkpoints = { ...memory, unvouched: async (runId: string) => (runId === 'r' ? [forged] : []) };
    const report = await undoRunChain(['r'], { workspace: createNodeWorkspace(dir), checkpoints, journaled: [{ stepId: 'bump', path: 'package.json' }] });
    assert.equal(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'), 'now\n');
    assert.deepEqual(report.refused.map((entry) => entry.path), ['package.json']);
    assert.match(report.refused[0]?.reason ?? '', /^the record of how it was before step bump changed it was not made by your Task Planner/);
    // Out of the steps Undo from here takes, it is not named.
    const scoped = await undoRunChain(['r'], { workspace: createNodeWorkspace(dir), checkpoints, steps: new Set(['other']) });
    assert.deepEqual(scoped.refused, []);
  });
});
