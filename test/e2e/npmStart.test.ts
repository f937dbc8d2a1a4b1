// `npm start` keeps the user's settings between starts (issue 28): its folders are kept in .npm-start/ (the demo
// workspace copied once), and code-server started twice on one kept user-data folder keeps a setting made between.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startCodeServer } from '../host/codeServer.cjs';

const root = resolve(__dirname, '..', '..');
type StartFolders = (root: string, options: { folder?: string; fresh?: boolean }) => { userDataDir: string; workspace: string; copiedDemo: boolean };

describe('npm start keeps the user data between starts', function () {
  this.timeout(120_000);
  let scratch: string;

  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'task-planner-npm-start-'));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it('uses .npm-start/user-data and a demo workspace copied once, kept until --fresh', async () => {
    const { startFolders } = (await import(join(root, 'scripts', 'startFolders.mjs'))) as { startFolders: StartFolders };
    const fakeRoot = join(scratch, 'repo');
    const fixture = join(fakeRoot, 'test', 'fixtures', 'demo-workspace');
    mkdirSync(fixture, { recursive: true });
    writeFileSync(join(fixture, 'README.md'), 'demo\n');
    const first = startFolders(fakeRoot, {});
    assert.deepEqual(first, { userDataDir: join(fakeRoot, '.npm-start', 'user-data'), workspace: join(fakeRoot, '.npm-start', 'demo-workspace'), copiedDemo: true });
    writeFileSync(join(first.workspace, 'notes.txt'), 'made in the first session\n');
    const second = startFolders(fakeRoot, {});
    assert.equal(second.copiedDemo, false);
    assert.equal(readFileSync(join(second.workspace, 'notes.txt'), 'utf8'), 'made in the first session\n');
    assert.deepEqual(startFolders(fakeRoot, { folder: 'elsewhere' }).workspace, resolve('elsewhere'));
    const fresh = startFolders(fakeRoot, { fresh: true });
    assert.equal(fresh.copiedDemo, true);
    assert.equal(existsSync(join(fresh.workspace, 'notes.txt')), false);
  });

  it('code-server on a kept user-data folder keeps a setting made in one start at the next, and the folder after stop', async () => {
    const userDataDir = join(scratch, 'user-data');
    const settings = join(userDataDir, 'User', 'settings.json');
    const first = await startCodeServer({ userDataDir });
    const made = { ...(JSON.parse(readFileSync(settings, 'utf8')) as Record<string, unknown>), 'taskPlanner.llm.provider': 'openai', 'telemetry.telemetryLevel': 'error' };
    writeFileSync(settings, JSON.stringify(made));
    await first.stop();
    assert.ok(existsSync(settings), 'the kept user data was removed on stop');
    const second = await startCodeServer({ userDataDir });
    try {
      const kept = JSON.parse(readFileSync(settings, 'utf8')) as Record<string, unknown>;
      assert.equal(kept['taskPlanner.llm.provider'], 'openai');
      assert.equal(kept['telemetry.telemetryLevel'], 'error', "a harness default overwrote the user's own value");
      assert.equal(kept['workbench.startupEditor'], 'none');
    } finally {
      await second.stop();
    }
    // A settings.json with comments (VS Code allows them) is left exactly as it is.
    const commented = '{\n  // mine\n  "editor.fontSize": 15\n}\n';
    writeFileSync(settings, commented);
    const third = await startCodeServer({ userDataDir });
    await third.stop();
    assert.equal(readFileSync(settings, 'utf8'), commented);
  });
});
