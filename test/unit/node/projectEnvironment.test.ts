import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findProgram } from '../../../src/node/findProgram';
import { missingProgramMessage } from '../../../src/node/missingProgram';
import { locateProgram, projectEnvironment, withAbsolutePath } from '../../../src/node/projectEnvironment';
import { makeVirtualEnvironment, plantProgram } from '../../support/projectPrograms';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe('projectEnvironment', () => {
  const temp = temporaryDirectory('tp-env-');
  const outside = temporaryDirectory('tp-env-out-');
  const root = (): string => path.join(temp.path, 'ws');
  beforeEach(() => fs.mkdirSync(path.join(temp.path, 'ws')));

  it("puts the workspace's .venv/bin, then node_modules/.bin, first on PATH and sets VIRTUAL_ENV, as an activated terminal", () => {
    makeVirtualEnvironment(path.join(root(), '.venv'));
    fs.mkdirSync(path.join(root(), 'node_modules', '.bin'), { recursive: true });
    const project = projectEnvironment(root(), { PATH: '/usr/bin:/bin', PYTHONHOME: '/opt/py', HOME: '/home/u' });
    assert.deepEqual(
      project.env['PATH']?.split(':'),
      [path.join(root(), '.venv', 'bin'), path.join(root(), 'node_modules', '.bin'), '/usr/bin', '/bin'],
    );
    assert.equal(project.env['VIRTUAL_ENV'], path.join(root(), '.venv'));
    assert.equal(project.env['PYTHONHOME'], undefined, 'activate removes PYTHONHOME');
    assert.equal(project.env['HOME'], '/home/u');
    assert.deepEqual(
      project.folders.map((folder) => [folder.shown, folder.from]),
      [
        ['.venv/bin', 'virtualEnvironment'],
        ['node_modules/.bin', 'nodeModules'],
      ],
    );
  });

  it('uses venv when there is no .venv, and only a folder with pyvenv.cfg (a Python virtual environment)', () => {
    fs.mkdirSync(path.join(root(), '.venv', 'bin'), { recursive: true });
    makeVirtualEnvironment(path.join(root(), 'venv'));
    const project = projectEnvironment(root(), { PATH: '/usr/bin' });
    assert.deepEqual(
      project.folders.map((folder) => folder.shown),
      ['venv/bin'],
    );
    assert.equal(project.env['VIRTUAL_ENV'], path.join(root(), 'venv'));
  });

  it('does not use a .venv or node_modules/.bin that is a link out of the workspace, and says so; a link inside it is used', () => {
    makeVirtualEnvironment(path.join(outside.path, 'venv'));
    fs.mkdirSync(path.join(outside.path, 'bin'));
    fs.symlinkSync(path.join(outside.path, 'venv'), path.join(root(), '.venv'));
    fs.mkdirSync(path.join(root(), 'node_modules'));
    fs.symlinkSync(path.join(outside.path, 'bin'), path.join(root(), 'node_modules', '.bin'));
    const project = projectEnvironment(root(), { PATH: '/usr/bin' });
    assert.deepEqual(project.folders, []);
    assert.equal(project.env['PATH'], '/usr/bin');
    assert.equal(project.env['VIRTUAL_ENV'], undefined);
    assert.deepEqual(project.notUsed, ['.venv (it leads out of the workspace folder)', 'node_modules/.bin (it leads out of the workspace folder)']);

    makeVirtualEnvironment(path.join(root(), 'envs', 'py'));
    fs.symlinkSync(path.join(root(), 'envs', 'py'), path.join(root(), 'venv'));
    assert.deepEqual(
      projectEnvironment(root(), { PATH: '/usr/bin' }).folders.map((folder) => folder.shown),
      ['venv/bin'],
    );
  });

  it('keeps only the absolute entries of PATH: an empty or relative entry would look in the working folder', () => {
    const base = { PATH: ['', '.', 'node_modules/.bin', '/usr/bin', '/usr/bin', 'bin', '/bin'].join(':') };
    assert.equal(projectEnvironment(root(), base).env['PATH'], '/usr/bin:/bin');
    assert.equal(withAbsolutePath(base).env['PATH'], '/usr/bin:/bin');
    plantProgram(path.join(root(), 'git'));
    assert.equal(findProgram('git', root(), '.:'), undefined, 'a git in the working folder is not found through "." or an empty entry');
    assert.equal(findProgram('./git', root(), ''), path.join(root(), 'git'), 'a path is still found');
  });

  it("puts the editor's selected Python environment first instead of .venv, shown by its absolute path when outside the workspace", () => {
    makeVirtualEnvironment(path.join(root(), '.venv'));
    const prefix = path.join(outside.path, 'envs', 'x');
    makeVirtualEnvironment(prefix);
    const selected = projectEnvironment(root(), { PATH: '/usr/bin' }, { prefix, bin: path.join(prefix, 'bin') });
    assert.deepEqual(selected.folders, [{ dir: path.join(prefix, 'bin'), shown: path.join(prefix, 'bin'), from: 'selectedPythonEnvironment' }]);
    assert.equal(selected.env['VIRTUAL_ENV'], prefix);
    const conda = projectEnvironment(root(), { PATH: '/usr/bin' }, { prefix, bin: path.join(prefix, 'bin'), conda: true });
    assert.deepEqual([conda.env['CONDA_PREFIX'], conda.env['VIRTUAL_ENV']], [prefix, undefined]);
    const inside = projectEnvironment(root(), { PATH: '/usr/bin' }, { prefix: path.join(root(), '.venv'), bin: path.join(root(), '.venv', 'bin') });
    assert.equal(inside.folders[0]?.shown, '.venv/bin');
  });

  it("finds a program in the project's folders before PATH and says where it comes from; PATH's and paths as they are", () => {
    makeVirtualEnvironment(path.join(root(), '.venv'));
    plantProgram(path.join(root(), '.venv', 'bin', 'mypy'));
    plantProgram(path.join(root(), 'node_modules', '.bin', 'eslint'));
    plantProgram(path.join(outside.path, 'mypy'));
    plantProgram(path.join(outside.path, 'tool'));
    plantProgram(path.join(root(), 'scripts', 'build'));
    const project = projectEnvironment(root(), { PATH: outside.path });
    assert.deepEqual(locateProgram('mypy', root(), project), {
      path: path.join(root(), '.venv', 'bin', 'mypy'),
      project: { path: path.join(root(), '.venv', 'bin', 'mypy'), shown: '.venv/bin/mypy', from: 'virtualEnvironment' },
    });
    assert.equal(locateProgram('eslint', root(), project)?.project?.shown, 'node_modules/.bin/eslint');
    assert.deepEqual(locateProgram('tool', root(), project), { path: path.join(outside.path, 'tool') });
    assert.deepEqual(locateProgram('scripts/build', root(), project), { path: path.join(root(), 'scripts', 'build') });
    assert.equal(locateProgram('nothing-here', root(), project), undefined);
  });
});

describe('missingProgramMessage', () => {
  const temp = temporaryDirectory('tp-missing-');

  it('names PATH and says to create the virtual environment and install a Python tool into it', () => {
    const message = missingProgramMessage('mypy', temp.path, temp.path, projectEnvironment(temp.path, { PATH: '/usr/bin:/bin' }));
    assert.equal(
      message,
      'Cannot start "mypy": no such program on PATH (/usr/bin:/bin). Create the virtual environment with `python3 -m venv .venv` and install mypy into it (`.venv/bin/python -m pip install mypy`), or install mypy where PATH finds it.',
    );
  });

  it("names the project folders it looked in, the ones it did not use, and how to install into the existing environment", () => {
    makeVirtualEnvironment(path.join(temp.path, '.venv'));
    const message = missingProgramMessage('pytest', temp.path, temp.path, projectEnvironment(temp.path, { PATH: '/usr/bin' }));
    assert.equal(
      message,
      'Cannot start "pytest": no such program in .venv/bin or on PATH (/usr/bin). Install it into the environment .venv: `.venv/bin/python -m pip install pytest`.',
    );
    const linked = temporaryDirectoryPath(temp.path, 'ws');
    fs.symlinkSync(path.join(temp.path, '.venv'), path.join(linked, '.venv'));
    assert.match(
      missingProgramMessage('black', linked, linked, projectEnvironment(linked, { PATH: '/usr/bin' })),
      /no such program on PATH \(\/usr\/bin\)\. Not used: \.venv \(it leads out of the workspace folder\)\. Create the virtual environment/,
    );
  });

  it('says to run the install of a Node project, and to add a known tool to one that has its packages', () => {
    fs.writeFileSync(path.join(temp.path, 'package.json'), JSON.stringify({ devDependencies: { 'my-linter': '1.0.0' } }));
    const before = projectEnvironment(temp.path, { PATH: '/usr/bin' });
    assert.match(
      missingProgramMessage('eslint', temp.path, temp.path, before),
      /Run `npm install` in the workspace folder to install the project's packages \(there is no node_modules\/\.bin yet\)\.$/,
    );
    assert.match(missingProgramMessage('my-linter', temp.path, temp.path, before), /Run `npm install`/);
    fs.writeFileSync(path.join(temp.path, 'pnpm-lock.yaml'), '');
    fs.mkdirSync(path.join(temp.path, 'node_modules', '.bin'), { recursive: true });
    assert.match(
      missingProgramMessage('tsc', temp.path, temp.path, projectEnvironment(temp.path, { PATH: '/usr/bin' })),
      /in node_modules\/\.bin or on PATH \(\/usr\/bin\)\. Add it to the project with `pnpm add -D typescript`/,
    );
    assert.match(missingProgramMessage('npm', temp.path, temp.path, before), /Install Node\.js/);
    assert.equal(missingProgramMessage('constructor', temp.path, temp.path, before), 'Cannot start "constructor": no such program on PATH (/usr/bin).');
    // From a newcomer's trial: the editor's PATH of 20 folders filled the notification and went to the replanner.
    const long = withAbsolutePath({ PATH: Array.from({ length: 20 }, (_, index) => `/opt/tool${index}/bin`).join(':') });
    assert.equal(
      missingProgramMessage('ruff', temp.path, temp.path, long),
      'Cannot start "ruff": no such program on PATH (/opt/tool0/bin:/opt/tool1/bin:/opt/tool2/bin:/opt/tool3/bin and 16 more folders). ' +
        'Create the virtual environment with `python3 -m venv .venv` and install ruff into it (`.venv/bin/python -m pip install ruff`), or install ruff where PATH finds it.',
    );
  });

  it('points a missing python at python3 or the virtual environment, and a path at the working folder', () => {
    plantProgram(path.join(temp.path, 'sys', 'python3'));
    const project = projectEnvironment(temp.path, { PATH: path.join(temp.path, 'sys') });
    assert.match(missingProgramMessage('python', temp.path, temp.path, project), /This system has `python3`: use that name, or create the virtual environment/);
    assert.equal(
      missingProgramMessage('./gradlew', temp.path, temp.path, project),
      `Cannot start "./gradlew": there is no executable file ./gradlew in ${temp.path}.`,
    );
  });
});

function temporaryDirectoryPath(parent: string, name: string): string {
  const dir = path.join(parent, name);
  fs.mkdirSync(dir);
  return dir;
}
