import assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../support/runCli';

describe('task-planner CLI and hard links', function () {
  this.timeout(60_000);
  let base: string;
  let plan: string;
  let workspace: string;
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'cli-hardlink-'));
    workspace = join(base, 'ws');
    mkdirSync(workspace);
    writeFileSync(join(base, 'secret.txt'), 'OUTSIDE SECRET');
    linkSync(join(base, 'secret.txt'), join(workspace, 'notes.txt'));
    plan = join(base, 'read.plan.json');
    writeFileSync(plan, JSON.stringify({ id: 'read', objective: 'Read the notes', steps: [{ id: 'read', title: 'Read notes', tool: 'read_file', args: { path: 'notes.txt' } }] }));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('refuses to read a hard-linked file, saying why and what to do, and reads it with --allow-hard-links', async () => {
    const refused = await runCli(['run', plan, '--workspace', workspace, '--json']);
    assert.notEqual(refused.code, 0);
    assert.doesNotMatch(refused.stdout + refused.stderr, /OUTSIDE SECRET/);
    assert.match(refused.stdout, /notes\.txt is a hard link.*--allow-hard-links/);
    const allowed = await runCli(['run', plan, '--workspace', workspace, '--json', '--allow-hard-links']);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stdout, /OUTSIDE SECRET/);
  });
});
