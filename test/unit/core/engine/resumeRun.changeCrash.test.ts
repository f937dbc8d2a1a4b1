import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { undoRun } from '../../../../src/core/tools/undoRun';
import { createCheckpointFolder } from '../../../../src/node/checkpointFolder';
import { createFileRunStore } from '../../../../src/node/fileRunStore';
import { resumeRun } from '../../../../src/node/nodeLibrary';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { changeRunId } from '../../../support/crashingChange';
import { temporaryDirectory } from '../../../support/temporaryDirectory';

const root = resolve(__dirname, '../../../..');

/** Runs the crashing child until it stops at its write (`when`), kills it with SIGKILL, and returns the folders. */
async function crashAt(base: string, when: 'before' | 'after'): Promise<{ workspace: string; runsDir: string }> {
  const workspace = join(base, when, 'ws');
  const runsDir = join(workspace, '.task-planner', 'runs');
  const marker = join(base, when, 'marker');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'version.txt'), 'name = demo\nversion = 1\n');
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/support/crashingChange.ts'), workspace, runsDir, marker, when], { cwd: root, stdio: 'ignore' });
  const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, signal) => done(signal)));
  const deadline = Date.now() + 30_000;
  while (!existsSync(marker)) {
    if (Date.now() > deadline) throw new Error('the child never reached its write');
    await new Promise((done) => setTimeout(done, 10));
  }
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL');
  return { workspace, runsDir };
}

function fileChangedEvents(runsDir: string): number {
  return readFileSync(join(runsDir, `${changeRunId}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"file_changed"')).length;
}

describe('resumeRun after SIGKILL between a change and its journal (issue 26, finding 3)', function () {
  this.timeout(60_000);
  const dir = temporaryDirectory('change-crash-');

  for (const when of ['after', 'before'] as const) {
    it(`makes the change exactly once when the process died ${when} the write landed, reports it once, and Undo restores the start`, async () => {
      const { workspace, runsDir } = await crashAt(dir.path, when);
      assert.equal(readFileSync(join(workspace, 'version.txt'), 'utf8'), when === 'after' ? 'name = demo\nversion = 1.1\n' : 'name = demo\nversion = 1\n');
      const checkpoints = createCheckpointFolder(runsDir);
      assert.deepEqual((await checkpoints.list(changeRunId)).map((checkpoint) => checkpoint.state), ['intended'], 'the intent was on disk before the change');

      const fs = createNodeWorkspace(workspace);
      const handle = resumeRun(changeRunId, { store: createFileRunStore(runsDir), checkpoints, workspace: fs, tools: builtinTools(), approvalPolicy: 'commandsOnly' });
      const result = await handle.result;
      assert.equal(result.status, 'completed');
      assert.equal(readFileSync(join(workspace, 'version.txt'), 'utf8'), 'name = demo\nversion = 1.1\n', 'applied once, not 1.1.1');
      assert.deepEqual(handle.state().changedFiles, ['version.txt']);
      assert.equal(fileChangedEvents(runsDir), 1);
      assert.deepEqual((await checkpoints.list(changeRunId)).map((checkpoint) => checkpoint.state), when === 'after' ? ['applied'] : ['abandoned', 'applied']);

      const undone = await undoRun(changeRunId, { workspace: fs, checkpoints });
      assert.deepEqual(undone.refused, []);
      assert.equal(readFileSync(join(workspace, 'version.txt'), 'utf8'), 'name = demo\nversion = 1\n');
    });
  }
});
