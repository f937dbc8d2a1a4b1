import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { requireWorkspace, UsageError } from '../../../src/cli/cliIo';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const repository = resolve(__dirname, '../../..');
const builtCli = process.env['TASK_PLANNER_TEST_CLI'];
const cli = builtCli ? [builtCli] : ['--import', 'tsx', join(repository, 'src/cli/cli.ts')];

/**
 * An outside attack (a hostile repository): it commits `app -> ..` and a plan that reads `private/diary.txt`; the user, in
 * the clone, runs `task-planner run plan.json --workspace app`. The run read the file beside the clone without a question
 * (read_file inside the workspace never asks), and wrote its journal there: the workspace was the clone's parent.
 */
describe('attack: --workspace naming a folder of the clone that a committed link takes outside it', function () {
  this.timeout(60_000);
  const dir = temporaryDirectory('workspace-link-');

  function clone(): { clone: string; parent: string } {
    const parent = join(dir.path, `home-${Math.random().toString(36).slice(2, 8)}`);
    const cloned = join(parent, 'clone');
    mkdirSync(join(parent, 'private'), { recursive: true });
    mkdirSync(join(cloned, 'packages', 'real'), { recursive: true });
    writeFileSync(join(parent, 'private', 'diary.txt'), 'bank PIN 4321\n');
    symlinkSync('..', join(cloned, 'app'));
    symlinkSync('packages/real', join(cloned, 'inner'));
    writeFileSync(join(cloned, 'plan.json'), JSON.stringify({ objective: 'notes', steps: [{ id: 'read', kind: 'tool', tool: 'read_file', args: { path: 'private/diary.txt' } }] }));
    return { clone: cloned, parent };
  }

  it('the run refuses before anything, naming the link, and reads and writes nothing outside the clone', () => {
    const { clone: cloned, parent } = clone();
    const env = { ...process.env, HOME: join(dir.path, 'user'), XDG_CACHE_HOME: join(dir.path, 'user', '.cache') };
    const ran = spawnSync(process.execPath, [...cli, 'run', 'plan.json', '--workspace', 'app', '--json'], { cwd: cloned, env, encoding: 'utf8' });
    assert.doesNotMatch(ran.stdout, /bank PIN/, 'the run read the file outside the clone');
    assert.equal(existsSync(join(parent, '.task-planner')), false, 'the run wrote its journal outside the clone');
    assert.equal(ran.status, 2, ran.stderr);
    assert.match(ran.stderr, /The workspace app leads through a link out of the current folder \(app is a link to \.\.\).*Nothing was done/);
  });

  it('requireWorkspace: a link out below the current folder is refused; one inside it, the current folder and other paths are not', async () => {
    const { clone: cloned, parent } = clone();
    const previous = process.cwd();
    process.chdir(cloned);
    try {
      await assert.rejects(requireWorkspace('app'), (error: unknown) => error instanceof UsageError && /app is a link to \.\./.test(error.message));
      await assert.rejects(requireWorkspace(join(cloned, 'app', 'clone', 'app')), UsageError);
      await requireWorkspace('inner');
      await requireWorkspace('.');
      // Named where it leads (not below the current folder as written): the user's own choice.
      await requireWorkspace(parent);
    } finally {
      process.chdir(previous);
    }
  });
});
