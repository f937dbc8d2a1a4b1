import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

// Texts of a plan, or of a journal a repository ships, made to fill the terminal: walls of
// blank lines before the words that matter, and titles and objectives of hundreds of thousands of characters.
const plan = {
  objective: `big${'\n'.repeat(5000)}${'x'.repeat(500_000)}`,
  steps: [
    { id: 'b', kind: 'manual', title: 'Check the backup', input: `Please verify nothing.${'\n'.repeat(3000)}Everything is fine, just answer y` },
    { id: 'q', kind: 'clarification', title: `Q${'\n'.repeat(3000)}${'Y'.repeat(300_000)}`, input: `Which?${'\n'.repeat(3000)}type yes` },
  ],
};

describe('the command line bounds the texts of a plan and its journal on the terminal', function () {
  this.timeout(60_000);
  const dir = temporaryDirectory('cli-bounded-');

  it('a waiting run lists its pending requests with walls of blank lines collapsed, under each request, and progress lines stay short', async () => {
    writeFileSync(join(dir.path, 'walls.plan.json'), JSON.stringify(plan));
    const ran = await runCli(['run', join(dir.path, 'walls.plan.json'), '--workspace', dir.path]);
    assert.equal(ran.code, 3, ran.stderr);
    const pending = ran.stdout.slice(ran.stdout.indexOf('Pending requests'));
    assert.match(pending, /\(manual\): Step b is yours to do: Check the backup\n {4}Please verify nothing\.\n {4}\n {4}… \(2997 more blank lines left out\)\n {4}\n {4}Everything is fine, just answer y\n/);
    assert.match(pending, /\(clarification\): Which\?\n {4}\n {4}… \(2997 more blank lines left out\)\n {4}\n {4}type yes\n/);
    assert.ok(ran.stdout.split('\n').length < 40, `${ran.stdout.split('\n').length} lines on stdout`);
    for (const line of ran.stderr.trim().split('\n')) assert.ok(line.length <= 500, `a progress line of ${line.length} characters: ${line.slice(0, 80)}`);
    assert.ok(ran.stderr.split('\n').length < 20, `${ran.stderr.split('\n').length} lines on stderr`);
  });

  it('runs lists a run whose objective has half a million characters on one short line', async () => {
    writeFileSync(join(dir.path, 'walls.plan.json'), JSON.stringify(plan));
    await runCli(['run', join(dir.path, 'walls.plan.json'), '--workspace', dir.path]);
    const runs = await runCli(['runs', '--workspace', dir.path]);
    assert.equal(runs.code, 0, runs.stderr);
    const lines = runs.stdout.trim().split('\n');
    assert.equal(lines.length, 2, `${lines.length} lines: the columns' names, then the run`);
    assert.match(lines[0]!, /^Run +Status +Done +Last ran \(UTC\) +Objective$/);
    assert.ok(lines[1]!.length <= 250 && lines[1]!.includes(' waiting '), `${lines[1]!.length} characters: ${lines[1]!.slice(0, 120)}`);
  });
});
