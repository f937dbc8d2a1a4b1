// Attack on "no change is lost" and "Undo writes a file back only while it is exactly what the run left" across
// processes: two runs (two task-planner processes, two ids) change one file at the same moment, then each is undone.
// Whatever order they land in, neither change is lost, and the undo of one never takes back the other's.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe('attack: two runs in two processes change one file at once, then each is undone', function () {
  this.timeout(180_000);
  const dir = temporaryDirectory('cli-two-runs-');

  for (const round of [1, 2, 3]) {
    it(`round ${round}: both changes land, and each undo takes back its own change alone, or leaves the file and says so`, async () => {
      const ws = join(dir.path, `ws${round}`);
      mkdirSync(ws, { recursive: true });
      writeFileSync(join(ws, 'shared.txt'), 'a=0\nb=0\n');
      const planOf = (key: string): string => {
        const file = join(dir.path, `${round}-${key}.json`);
        writeFileSync(file, JSON.stringify({ objective: `set ${key}`, steps: [{ id: key, tool: 'edit_file', args: { path: 'shared.txt', edits: [{ search: `${key}=0`, replace: `${key}=1` }] } }] }));
        return file;
      };
      const [a, b] = await Promise.all(['a', 'b'].map((key) => runCli(['run', planOf(key), '--workspace', ws, '--yes', '--json'])));
      assert.equal(a?.code, 0, a?.stderr);
      assert.equal(b?.code, 0, b?.stderr);
      assert.equal(readFileSync(join(ws, 'shared.txt'), 'utf8'), 'a=1\nb=1\n', 'a change was lost');
      const ids = [a, b].map((ran) => (JSON.parse(ran?.stdout ?? '{}') as { runId: string }).runId);
      // Undone in the order they were started: the one that landed first finds the file changed since, unless the other was undone.
      const seen: string[] = [];
      for (const [index, runId] of ids.entries()) {
        const undone = await runCli(['undo', runId ?? '', '--workspace', ws]);
        const now = readFileSync(join(ws, 'shared.txt'), 'utf8');
        seen.push(now);
        const key = index === 0 ? 'a' : 'b';
        const other = index === 0 ? 'b' : 'a';
        // The other run's change is never taken back by this undo.
        const otherValue = index === 0 ? '1' : (seen[0]?.includes('a=1') ?? false) ? '1' : '0';
        assert.ok(now.includes(`${other}=${otherValue}`), `undo of ${key} took back ${other}: ${JSON.stringify(now)} ${undone.stdout}`);
        if (undone.code === 0) assert.ok(now.includes(`${key}=0`), `undo of ${key} said it was done: ${JSON.stringify(now)}`);
        else {
          assert.equal(undone.code, 1, undone.stderr);
          assert.match(undone.stdout + undone.stderr, /shared\.txt/);
        }
      }
    });
  }
});
