import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../../src/cli/cliIo';
import { writeOutputFile } from '../../../src/cli/outputFile';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

/**
 * Outside attacks on the files the command line writes where the user names them (`trace --trace FILE`, `export --out
 * FILE`), in a repository that committed links: `trace R --trace trace.jsonl` over a committed `trace.jsonl -> ~/.bashrc`
 * replaced the user's .bashrc with the trace's JSON lines; `export --out specs/tasks.md` through a committed folder
 * `specs -> ~/other-project/specs` replaced that project's tasks.md, saying "Replaced specs/tasks.md".
 */
describe('attack: files the command line writes, through links a repository committed', function () {
  this.timeout(60_000);
  const dir = temporaryDirectory('output-file-');
  const home = (): Record<string, string> => ({ HOME: join(dir.path, 'home'), XDG_CACHE_HOME: join(dir.path, 'home', '.cache') });

  /** A workspace with one run of a plan that writes a.txt, and a file outside it. */
  async function workspaceWithRun(name: string): Promise<{ ws: string; runId: string; plan: string; outside: string }> {
    const ws = join(dir.path, name);
    const outside = join(dir.path, `${name}-outside`);
    mkdirSync(ws, { recursive: true });
    mkdirSync(join(outside, 'specs'), { recursive: true });
    writeFileSync(join(outside, 'bashrc'), '# mine\n');
    writeFileSync(join(outside, 'specs', 'tasks.md'), '# my other project\n');
    const plan = join(dir.path, `${name}.plan.json`);
    writeFileSync(plan, JSON.stringify({ objective: 'write a', steps: [{ id: 'w', kind: 'tool', tool: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] }));
    const ran = await runCli(['run', plan, '--workspace', ws, '--yes', '--json'], home());
    assert.equal(ran.code, 0, ran.stderr);
    return { ws, runId: (JSON.parse(ran.stdout) as { runId: string }).runId, plan, outside };
  }

  it('trace --trace onto a committed link, or through a committed folder link, writes nothing outside (exit 2, naming it)', async () => {
    const { ws, runId, outside } = await workspaceWithRun('trace');
    symlinkSync(join(outside, 'bashrc'), join(ws, 'trace.jsonl'));
    const onto = await runCli(['trace', runId, '--workspace', ws, '--trace', join(ws, 'trace.jsonl')], home());
    assert.equal(readFileSync(join(outside, 'bashrc'), 'utf8'), '# mine\n', `trace wrote through the link: exit ${onto.code} ${onto.stderr}`);
    assert.equal(onto.code, 2, onto.stderr);
    assert.match(onto.stderr, /--trace .*trace\.jsonl is a link; name the file itself, not a link to it\. Nothing was written\./);
    symlinkSync(outside, join(ws, 'out'));
    const through = await runCli(['trace', runId, '--workspace', ws, '--trace', join(ws, 'out', 'bashrc')], home());
    assert.equal(readFileSync(join(outside, 'bashrc'), 'utf8'), '# mine\n', `trace wrote through the folder link: exit ${through.code} ${through.stderr}`);
    assert.equal(through.code, 2, through.stderr);
    assert.match(through.stderr, /--trace .*: the folder out on its way is a link \(to .*\) out of .*, so the file would be written where it leads\. Name a path without links\. Nothing was written\./);
    // A path without links is written as before.
    const plain = await runCli(['trace', runId, '--workspace', ws, '--trace', join(ws, 'trace-plain.jsonl')], home());
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(readFileSync(join(ws, 'trace-plain.jsonl'), 'utf8'), /^\{"id":"run"/);
  });

  it('export --run --out through a committed folder link writes nothing outside (exit 2, naming it)', async () => {
    const { ws, runId, plan, outside } = await workspaceWithRun('export');
    symlinkSync(join(outside, 'specs'), join(ws, 'specs'));
    const exported = await runCli(['export', plan, '--format', 'checklist', '--run', runId, '--workspace', ws, '--out', join(ws, 'specs', 'tasks.md')], home());
    assert.equal(readFileSync(join(outside, 'specs', 'tasks.md'), 'utf8'), '# my other project\n', `export wrote through the folder link: ${exported.stderr}`);
    assert.equal(exported.code, 2, exported.stderr);
    assert.match(exported.stderr, /--out .*tasks\.md: the folder specs on its way is a link/);
  });

  it('writeOutputFile: a folder link below the current folder is refused; a path the user names elsewhere is theirs to name', async () => {
    const ws = join(dir.path, 'unit');
    const outside = join(dir.path, 'unit-outside');
    mkdirSync(join(ws, 'deep'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    symlinkSync(outside, join(ws, 'deep', 'specs'));
    await assert.rejects(writeOutputFile('--out', join(ws, 'deep', 'specs', 'tasks.md'), 'x\n', [ws]), (error: unknown) => error instanceof UsageError);
    const previous = process.cwd();
    process.chdir(ws);
    try {
      await assert.rejects(writeOutputFile('--out', join('deep', 'specs', 'tasks.md'), 'x\n'), /the folder deep\/specs on its way is a link/);
    } finally {
      process.chdir(previous);
    }
    // A link that stays inside the folder is no way out.
    mkdirSync(join(ws, 'documentation'));
    symlinkSync('documentation', join(ws, 'docs'));
    assert.deepEqual(await writeOutputFile('--out', join(ws, 'docs', 'tasks.md'), 'x\n', [ws]), { replaced: false });
    assert.equal(readFileSync(join(ws, 'documentation', 'tasks.md'), 'utf8'), 'x\n');
    // Outside every root given (and the current folder), the user's own path is written, links on its way or not.
    const elsewhere = join(dir.path, 'mine');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(dir.path, 'mine-link'));
    assert.deepEqual(await writeOutputFile('--out', join(dir.path, 'mine-link', 'tasks.md'), 'x\n', [ws]), { replaced: false });
    assert.equal(readFileSync(join(elsewhere, 'tasks.md'), 'utf8'), 'x\n');
  });
});
