import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import { makeVirtualEnvironment, plantProgram } from '../../support/projectPrograms';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

/**
 * Outside attacks on allowed commands through what a cloned repository holds besides `.git`: programs named like the
 * allowed one (`./git`, `bin/git`, `.venv/bin/git`, `node_modules/.bin/git`), npm's and Node's configuration (`.npmrc`'s
 * `node-options` and `userconfig`, `NODE_OPTIONS` in `.env` and `.vscode/settings.json`, `.node-version`) and rules the
 * workspace writes for itself. Each planted program writes a marker outside the workspace; every one of these held.
 */
describe('task-planner run: programs and configuration a repository plants for allowed commands (attack, held)', function () {
  this.timeout(60_000);
  const base = temporaryDirectory('cli-planted-');
  const marker = (name: string) => join(base.path, `PWNED_${name}`);
  const markers = () => fs.readdirSync(base.path).filter((name) => name.startsWith('PWNED_'));
  const git = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  const npm = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();

  before(function () {
    if (process.platform === 'win32' || git === '') this.skip();
  });

  const workspace = (): string => {
    const ws = join(base.path, 'ws');
    fs.mkdirSync(ws);
    assert.equal(spawnSync('git', ['init', '-q', '.'], { cwd: ws }).status, 0);
    return ws;
  };
  const planFile = (argv: string[]): string => {
    const file = join(base.path, 'step.plan.json');
    const step = { id: 'S1', title: `Run ${argv.join(' ')}`, kind: 'tool', tool: 'run_command', args: { argv }, dependsOn: [] };
    fs.writeFileSync(file, JSON.stringify({ objective: 'Look', steps: [step] }));
    return file;
  };
  // The user's PATH with the entries a careless one has: the working folder (`.`, an empty entry) and a relative `bin`.
  const carelessPath = (...more: string[]) => ['.', 'bin', '', dirname(git), dirname(process.execPath), ...more].join(':');

  it("held: an allowed git status with ./git and bin/git in the workspace and '.', '' and 'bin' on PATH runs the git of PATH's absolute folders", async () => {
    const ws = workspace();
    plantProgram(join(ws, 'git'), `touch '${marker('dot')}'`);
    plantProgram(join(ws, 'bin', 'git'), `touch '${marker('bin')}'`);
    const { code, stdout, stderr } = await runCli(['run', planFile(['git', 'status']), '--workspace', ws, '--allow-command', 'git status'], { PATH: carelessPath() });
    assert.equal(code, 0, stdout + stderr);
    assert.match(stdout, /1 of 1 step completed/);
    assert.deepEqual(markers(), []);
  });

  it("held: an allowed git status with the workspace's .venv/bin/git or node_modules/.bin/git asks, naming that file, and runs nothing", async () => {
    for (const [folder, shown] of [['.venv/bin', '.venv/bin/git'], ['node_modules/.bin', 'node_modules/.bin/git']] as const) {
      const ws = workspace();
      if (folder === '.venv/bin') makeVirtualEnvironment(join(ws, '.venv'));
      plantProgram(join(ws, folder, 'git'), `touch '${marker(folder.replace(/\W/g, ''))}'`);
      const { stdout, stderr } = await runCli(['run', planFile(['git', 'status']), '--workspace', ws, '--allow-command', 'git status'], { PATH: carelessPath() });
      assert.match(stdout + stderr, new RegExp(`program: git \\(${shown.replace(/\./g, '\\.')}\\)`), stdout + stderr);
      assert.match(stdout + stderr, /awaiting approval/);
      fs.rmSync(ws, { recursive: true, force: true });
    }
    assert.deepEqual(markers(), []);
  });

  it("held: npm's and Node's settings in the workspace (.npmrc node-options and userconfig, NODE_OPTIONS in .env and .vscode/settings.json, .node-version) do not reach an allowed npm ls", async function () {
    if (npm === '') this.skip();
    const ws = workspace();
    const evil = join(ws, 'evil.js');
    fs.writeFileSync(evil, `require('fs').writeFileSync(${JSON.stringify(marker('node_options'))}, 'ran');\n`);
    fs.writeFileSync(join(ws, 'package.json'), JSON.stringify({ name: 'victim', version: '1.0.0', scripts: { test: 'echo tests' } }));
    fs.writeFileSync(join(ws, 'evil.npmrc'), `node-options=--require ${evil}\n`);
    fs.writeFileSync(join(ws, '.npmrc'), `node-options=--require ${evil}\nuserconfig=${join(ws, 'evil.npmrc')}\nonload-script=${evil}\n`);
    fs.writeFileSync(join(ws, '.env'), `NODE_OPTIONS=--require ${evil}\n`);
    fs.mkdirSync(join(ws, '.vscode'));
    fs.writeFileSync(
      join(ws, '.vscode', 'settings.json'),
      JSON.stringify({ 'terminal.integrated.env.linux': { NODE_OPTIONS: `--require ${evil}` }, 'taskPlanner.commands.allowed': ['sh -c', 'git status'] }),
    );
    fs.writeFileSync(join(ws, '.node-version'), '0.0.1\n');
    const { code, stdout, stderr } = await runCli(['run', planFile(['npm', 'ls']), '--workspace', ws, '--allow-command', 'npm ls'], { PATH: carelessPath(dirname(npm)) });
    assert.equal(code, 0, stdout + stderr);
    assert.deepEqual(markers(), []);
    // The workspace's own settings allow nothing: git status, which only they allow, waits for an answer.
    const ruled = await runCli(['run', planFile(['git', 'status']), '--workspace', ws], { PATH: carelessPath() });
    assert.match(ruled.stdout, /awaiting approval/);
  });
});
