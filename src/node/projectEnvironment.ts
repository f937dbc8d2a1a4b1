import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProjectProgram } from '../core/commandPorts';
import { absoluteEntries, findInFolders, hasFolder } from './findProgram';
import { leadsOutside } from '../shared/leadsOutside';

/** The Python environment the editor's Python extension selected for the workspace folder. */
export interface SelectedPythonEnvironment {
  /** The environment's own folder (`sys.prefix`): a virtual environment's or a conda environment's. */
  prefix: string;
  /** The folder holding its programs, where its `python` is. */
  bin: string;
  /** A conda environment, announced with `CONDA_PREFIX` rather than `VIRTUAL_ENV`. */
  conda?: boolean;
}

/** One of the project's own program folders, searched before `PATH`. */
export interface ProgramFolder {
  /** Absolute. */
  dir: string;
  /** Workspace-relative (`.venv/bin`) when inside the workspace folder, else absolute. */
  shown: string;
  from: ProjectProgram['from'];
}

/** The environment commands run in: the variables, and where a program is looked for. */
export interface ProjectEnvironment {
  /**
   * The process environment: `PATH` is the program folders, then the absolute entries of
   * the given `PATH` (an empty or relative entry would look in the working folder, which a
   * repository fills); a Python environment's `VIRTUAL_ENV` (or `CONDA_PREFIX`) set and
   * `PYTHONHOME` removed, as its `activate` script does.
   */
  env: NodeJS.ProcessEnv;
  /** The project's program folders, in the order they are searched. */
  folders: ProgramFolder[];
  /** The absolute folders of the given `PATH`, searched after `folders`. */
  pathFolders: string[];
  /** Folders that were there but not used, each with why, in the user's words (`.venv (it leads out of the workspace folder)`). */
  notUsed: string[];
}

/**
 * The environment commands run in under the workspace folder `root`, the way VS Code's
 * terminals set it up: the Python environment the editor selected (`python`), or else a
 * virtual environment in the workspace's `.venv` or `venv` (a folder with `pyvenv.cfg`),
 * its `bin` (Windows: `Scripts`) first on `PATH` and `VIRTUAL_ENV` set; then the
 * `node_modules/.bin` of each folder from `cwd` (absolute, a command's working folder) up to
 * the workspace's own, nearest first (npm's convention for a package's own programs, as npm
 * run does in a monorepo's package).
 * A `.venv`, `venv` or `node_modules/.bin` that leads out of the workspace folder (a link)
 * is not used. `base` is the environment to start from, secrets already removed.
 */
export function projectEnvironment(root: string, base: NodeJS.ProcessEnv, python?: SelectedPythonEnvironment, cwd: string = root): ProjectEnvironment {
  const folders: ProgramFolder[] = [];
  const notUsed: string[] = [];
  const realRoot = realPath(root) ?? path.resolve(root);
  const inside = (dir: string): 'inside' | 'outside' | 'absent' => {
    const real = realPath(dir);
    if (real === undefined || !isDirectory(real)) return 'absent';
    return real === realRoot || real.startsWith(realRoot + path.sep) ? 'inside' : 'outside';
  };
  const env: NodeJS.ProcessEnv = { ...base };
  const pythonFolder = python
    ? { dir: python.bin, prefix: python.prefix, from: 'selectedPythonEnvironment' as const }
    : virtualEnvironment(root, inside, notUsed);
  if (pythonFolder !== undefined) {
    // A selected environment may lie anywhere; in the workspace only when it really does (no link out).
    const shown = inside(pythonFolder.dir) === 'inside' ? shownFolder(root, pythonFolder.dir) : pythonFolder.dir;
    folders.push({ dir: pythonFolder.dir, shown, from: pythonFolder.from });
    delete env['PYTHONHOME'];
    env[python?.conda ? 'CONDA_PREFIX' : 'VIRTUAL_ENV'] = pythonFolder.prefix;
  }
  for (const nodeBin of nodeBinsUp(root, cwd)) {
    const node = inside(nodeBin);
    const shown = shownFolder(root, nodeBin);
    if (node === 'inside') folders.push({ dir: nodeBin, shown, from: 'nodeModules' });
    else if (node === 'outside') notUsed.push(`${shown} (it leads out of the workspace folder)`);
  }
  const pathKey = pathVariableName(env);
  const pathFolders = absoluteEntries(env[pathKey]);
  const searched = new Set(folders.map((folder) => folder.dir));
  env[pathKey] = [...folders.map((folder) => folder.dir), ...pathFolders.filter((dir) => !searched.has(dir))].join(path.delimiter);
  return { env, folders, pathFolders, notUsed };
}

/** `env` with only the absolute entries of its `PATH`: what commands run with when the project's environment is not used. */
export function withAbsolutePath(env: NodeJS.ProcessEnv): ProjectEnvironment {
  const pathKey = pathVariableName(env);
  const pathFolders = absoluteEntries(env[pathKey]);
  return { env: { ...env, [pathKey]: pathFolders.join(path.delimiter) }, folders: [], pathFolders, notUsed: [] };
}

/**
 * Where `program` runs from in `environment`: a name without a folder in its program
 * folders first (then `project` says which), then on its `PATH`; a path relative to `cwd`.
 */
export function locateProgram(program: string, cwd: string, environment: ProjectEnvironment): { path: string; project?: ProjectProgram } | undefined {
  if (hasFolder(program)) {
    const file = findInFolders(path.basename(program), [path.resolve(cwd, path.dirname(program))]);
    return file === undefined ? undefined : { path: file };
  }
  for (const folder of environment.folders) {
    const file = findInFolders(program, [folder.dir]);
    if (file !== undefined) {
      const shown = folder.shown === folder.dir ? file : `${folder.shown}/${path.basename(file)}`;
      return { path: file, project: { path: file, shown, from: folder.from } };
    }
  }
  const file = findInFolders(program, environment.pathFolders);
  return file === undefined ? undefined : { path: file };
}

function virtualEnvironment(
  root: string,
  inside: (dir: string) => 'inside' | 'outside' | 'absent',
  notUsed: string[],
): { dir: string; prefix: string; from: 'virtualEnvironment' } | undefined {
  for (const name of ['.venv', 'venv']) {
    const prefix = path.join(root, name);
    const bin = path.join(prefix, process.platform === 'win32' ? 'Scripts' : 'bin');
    if (!fs.existsSync(path.join(prefix, 'pyvenv.cfg'))) continue;
    const where = inside(bin);
    if (where === 'inside') return { dir: bin, prefix, from: 'virtualEnvironment' };
    if (where === 'outside') notUsed.push(`${name} (it leads out of the workspace folder)`);
  }
  return undefined;
}

/** The `node_modules/.bin` of `cwd` and of each folder above it up to `root`, nearest first; only `root`'s when `cwd` is not inside it. */
function nodeBinsUp(root: string, cwd: string): string[] {
  const top = path.resolve(root);
  const relative = path.relative(top, path.resolve(cwd));
  const parts = relative === '' || leadsOutside(relative) || path.isAbsolute(relative) ? [] : relative.split(path.sep);
  const bins: string[] = [];
  for (let depth = parts.length; depth >= 0; depth--) bins.push(path.join(top, ...parts.slice(0, depth), 'node_modules', '.bin'));
  return bins;
}

/** `dir` as the user is shown it: relative to `root` with `/` when it lies in it, else absolute. */
function shownFolder(root: string, dir: string): string {
  const relative = path.relative(path.resolve(root), path.resolve(dir));
  if (relative === '' || leadsOutside(relative) || path.isAbsolute(relative)) return dir;
  return relative.split(path.sep).join('/');
}

/** The name of the `PATH` variable in `env` (Windows spells it as it likes: `Path`). */
function pathVariableName(env: NodeJS.ProcessEnv): string {
  if (process.platform !== 'win32') return 'PATH';
  return Object.keys(env).find((name) => name.toUpperCase() === 'PATH') ?? 'Path';
}

function realPath(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
