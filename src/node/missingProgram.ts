import * as fs from 'node:fs';
import * as path from 'node:path';
import { capText } from '../core/text/capText';
import { programName } from '../core/tools/commandAllowRules';
import { findInFolders, hasFolder } from './findProgram';
import type { ProjectEnvironment } from './projectEnvironment';

// Python tools, by program name, with the package that installs them where it is named otherwise.
const pythonTools: Readonly<Record<string, string>> = {
  pytest: 'pytest', 'py.test': 'pytest', mypy: 'mypy', black: 'black', ruff: 'ruff', flake8: 'flake8', pylint: 'pylint', isort: 'isort',
  tox: 'tox', nox: 'nox', coverage: 'coverage', bandit: 'bandit', pip: 'pip', 'pre-commit': 'pre-commit', 'sphinx-build': 'sphinx',
  'django-admin': 'django', uvicorn: 'uvicorn', ipython: 'ipython', jupyter: 'jupyter', pydocstyle: 'pydocstyle', yapf: 'yapf',
  autopep8: 'autopep8', pyflakes: 'pyflakes', pycodestyle: 'pycodestyle', twine: 'twine', hatch: 'hatch', maturin: 'maturin',
};

// Programs of npm packages, by program name, with the package that installs them.
const nodeTools: Readonly<Record<string, string>> = {
  eslint: 'eslint', prettier: 'prettier', tsc: 'typescript', tsx: 'tsx', 'ts-node': 'ts-node', jest: 'jest', vitest: 'vitest', mocha: 'mocha',
  webpack: 'webpack-cli', vite: 'vite', next: 'next', playwright: '@playwright/test', cypress: 'cypress', nx: 'nx', turbo: 'turbo',
  lerna: 'lerna', biome: '@biomejs/biome', c8: 'c8', nyc: 'nyc', ava: 'ava', rollup: 'rollup', esbuild: 'esbuild', stylelint: 'stylelint',
  'vue-tsc': 'vue-tsc', svelte: 'svelte-check', 'svelte-check': 'svelte-check', ng: '@angular/cli', nodemon: 'nodemon', karma: 'karma',
};

const nodeItself = new Set(['node', 'npm', 'npx', 'corepack']);

/**
 * Why `program` could not be started, in the user's words: where it was looked for (the
 * project's program folders and `PATH`, or the working folder `cwd` for a path), what was
 * left out, and how to get it: create the virtual environment and install the Python tool
 * into it, run the project's package install, or install Node.js or Python.
 */
export function missingProgramMessage(program: string, cwd: string, root: string, environment: ProjectEnvironment): string {
  if (hasFolder(program)) return `Cannot start "${program}": there is no executable file ${program} in ${cwd}.`;
  const shownPath = environment.pathFolders.length === 0 ? 'PATH (empty)' : `PATH (${shownFolders(environment.pathFolders)})`;
  const folders = environment.folders.map((folder) => folder.shown);
  const looked = folders.length === 0 ? `on ${shownPath}` : `in ${folders.join(', ')} or on ${shownPath}`;
  const notUsed = environment.notUsed.length === 0 ? '' : ` Not used: ${environment.notUsed.join('; ')}.`;
  const hint = howToGet(program, root, environment);
  return `Cannot start "${program}": no such program ${looked}.${notUsed}${hint === undefined ? '' : ` ${hint}`}`;
}

function howToGet(program: string, root: string, environment: ProjectEnvironment): string | undefined {
  const name = program.toLowerCase().replace(/\.(exe|com)$/, '');
  const python = environment.folders.find((folder) => folder.from !== 'nodeModules');
  if (programName(name) === 'python') {
    if (python !== undefined) {
      return `The environment ${python.shown} has no ${program}: create it again with \`python3 -m venv --clear ${path.dirname(python.shown)}\`.`;
    }
    if (name === 'python' && findInFolders('python3', environment.pathFolders) !== undefined) {
      return 'This system has `python3`: use that name, or create the virtual environment with `python3 -m venv .venv` (it has `python`).';
    }
    return 'Install Python 3, then create the virtual environment with `python3 -m venv .venv`.';
  }
  const pythonPackage = own(pythonTools, name) ?? own(pythonTools, programName(name));
  if (pythonPackage !== undefined) {
    if (python !== undefined) {
      return `Install it into the environment ${path.dirname(python.shown)}: \`${python.shown}/python -m pip install ${pythonPackage}\`.`;
    }
    return `Create the virtual environment with \`python3 -m venv .venv\` and install ${pythonPackage} into it (\`.venv/bin/python -m pip install ${pythonPackage}\`), or install ${program} where PATH finds it.`;
  }
  if (nodeItself.has(name)) return 'Install Node.js, which brings node, npm and npx.';
  const nodePackage = own(nodeTools, name);
  const hasPackageJson = fs.existsSync(path.join(root, 'package.json'));
  const installer = fs.existsSync(path.join(root, 'pnpm-lock.yaml')) ? 'pnpm' : fs.existsSync(path.join(root, 'yarn.lock')) ? 'yarn' : 'npm';
  const hasNodeBin = environment.folders.some((folder) => folder.from === 'nodeModules');
  if (hasPackageJson && !hasNodeBin && (nodePackage !== undefined || dependsOn(root, program))) {
    return `Run \`${installer} install\` in the workspace folder to install the project's packages (there is no node_modules/.bin yet).`;
  }
  if (nodePackage !== undefined) {
    return `Add it to the project with \`${installer === 'npm' ? 'npm install --save-dev' : `${installer} add -D`} ${nodePackage}\`, or install ${program} where PATH finds it.`;
  }
  return undefined;
}

/** Whether the workspace's `package.json` lists a package named `name` among its dependencies. */
function dependsOn(root: string, name: string): boolean {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    return ['dependencies', 'devDependencies', 'optionalDependencies'].some((field) => {
      const listed = manifest[field];
      return typeof listed === 'object' && listed !== null && Object.hasOwn(listed, name);
    });
  } catch {
    return false;
  }
}

function own(record: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Most folders of `PATH` a message names: a newcomer read the whole of the editor's (20 folders) in a notification. */
const shownPathFolders = 4;

/** `folders` joined as `PATH` spells them, the first `shownPathFolders` of them and how many more, each bounded. */
function shownFolders(folders: readonly string[]): string {
  const named = folders.slice(0, shownPathFolders).map((folder) => capText(folder, 100)).join(path.delimiter);
  const more = folders.length - shownPathFolders;
  return more > 0 ? `${named} and ${more} more folder${more === 1 ? '' : 's'}` : named;
}
