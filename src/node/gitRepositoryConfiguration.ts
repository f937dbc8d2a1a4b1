import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitGlobalOptions, gitRepositoryPrograms, type GitConfigEntry, type GitHook } from '../core/tools/gitRepositoryPrograms';
import { leadsOutside } from '../shared/leadsOutside';

/** Longest git's answers are read (its whole configuration, listed). */
const maxListing = 4 * 1024 * 1024;

/**
 * What the configuration of the repository the git command `argv` works on makes git run (see
 * `gitRepositoryPrograms`), asked of git itself (the installed `git`, run in `cwd` with `env` and the command's options
 * before its subcommand, so `-C` and `--git-dir` lead where the command would): `git config --list` with each entry's
 * scope and file, which follows the repository's includes, and the hooks folder `git rev-parse --git-path hooks` names
 * (its `core.hooksPath` too), whose executable files are its hooks. Files are shown relative to `root` when they lie in
 * it. Neither asks git to run anything: `env` tells it not to run a file system monitor. A configuration git cannot
 * read is named as such, so a command it would refuse anyway is not taken for one with nothing to say.
 */
export async function readGitRepositoryPrograms(git: string, argv: readonly string[], cwd: string, root: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const found = { config: [] as GitConfigEntry[], hooks: [] as GitHook[], unreadable: [] as string[], budget: maxSubmodules };
  await readRepository(git, gitGlobalOptions(argv).options, cwd, root, env, 0, found);
  if (found.unreadable.length > 0) return found.unreadable;
  // A submodule not checked out is its parent's folder to git: the parent's entries come again, once is enough.
  const config = found.config.filter((entry, index) => found.config.findIndex((other) => sameEntry(other, entry)) === index);
  const hooks = found.hooks.filter((hook, index) => found.hooks.findIndex((other) => other.shown === hook.shown) === index);
  return gitRepositoryPrograms(argv, config, hooks);
}

/** Most submodules looked into, and how deep (a submodule's submodules): git runs in each of them for `git status`. */
const maxSubmodules = 20;
const maxSubmoduleDepth = 3;

/**
 * Adds to `found` the configuration and hooks of the repository git finds with `options` in `cwd`, then those of each of
 * its submodules (`git status` and `git diff` run git in them, with their own configuration and hooks), up to the limits.
 */
async function readRepository(
  git: string,
  options: readonly string[],
  cwd: string,
  root: string,
  env: NodeJS.ProcessEnv,
  depth: number,
  found: { config: GitConfigEntry[]; hooks: GitHook[]; unreadable: string[]; budget: number },
): Promise<void> {
  const [listed, hooksFolder, top, submodules] = await Promise.all([
    askGit(git, [...options, 'config', '--list', '--show-scope', '--show-origin', '-z'], cwd, env),
    askGit(git, [...options, 'rev-parse', '--git-path', 'hooks'], cwd, env),
    askGit(git, [...options, 'rev-parse', '--show-toplevel'], cwd, env),
    depth < maxSubmoduleDepth ? submodulePaths(git, options, cwd, env) : Promise.resolve([]),
  ]);
  if (listed.failed) {
    found.unreadable.push(`its git configuration, which git cannot read (${firstLine(listed.stderr)})`);
    return;
  }
  found.config.push(...configEntries(listed.stdout, cwd, root));
  if (!hooksFolder.failed) found.hooks.push(...hooksIn(path.resolve(cwd, hooksFolder.stdout.trim()), root));
  // Each submodule as git itself goes into it: from its folder, whatever options the command gave its parent.
  const worktree = top.failed ? undefined : top.stdout.trim();
  if (worktree === undefined || worktree === '') return;
  for (const submodule of submodules) {
    if (found.budget-- <= 0) return;
    const folder = path.resolve(cwd, worktree, submodule);
    if (fs.existsSync(folder)) await readRepository(git, [], folder, root, env, depth + 1, found);
  }
}

/**
 * The paths of the submodules in the index of the repository git finds with `options` in `cwd` (gitlinks, mode 160000),
 * relative to its top folder, read as they stream.
 */
function submodulePaths(git: string, options: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  return new Promise((done) => {
    const paths: string[] = [];
    let rest = '';
    const args = [...options, 'ls-files', '--stage', '--full-name', '-z', '--', ':/'];
    const child = spawn(git, args, { cwd, env, stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const entries = (rest + chunk).split('\0');
      rest = entries.pop() ?? '';
      // `<mode> <object> <stage>\t<path>`: a submodule is mode 160000, each once (a conflict lists it per stage).
      for (const entry of entries) if (entry.startsWith('160000 ')) paths.push(entry.slice(entry.indexOf('\t') + 1));
    });
    child.once('error', () => undefined);
    child.once('close', () => {
      clearTimeout(timer);
      done([...new Set(paths)]);
    });
  });
}

function sameEntry(one: GitConfigEntry, other: GitConfigEntry): boolean {
  return one.origin === other.origin && one.key === other.key && one.value === other.value;
}

/** Runs `git args` in `cwd`; what it printed, and whether it failed. */
function askGit(git: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string; failed: boolean }> {
  return new Promise((done) => {
    execFile(git, args, { cwd, env, encoding: 'utf8', maxBuffer: maxListing, timeout: 10_000, windowsHide: true }, (error, stdout, stderr) =>
      done({ stdout, stderr, failed: error !== null }),
    );
  });
}

/** The entries of `git config --list --show-scope --show-origin -z`'s output: scope, origin and `key\nvalue` (or `key`), each ended by NUL. */
function configEntries(listing: string, cwd: string, root: string): GitConfigEntry[] {
  const parts = listing.split('\0');
  const entries: GitConfigEntry[] = [];
  for (let index = 0; index + 2 < parts.length; index += 3) {
    const [scope, origin, item] = [parts[index] ?? '', parts[index + 1] ?? '', parts[index + 2] ?? ''];
    const newline = item.indexOf('\n');
    const key = newline === -1 ? item : item.slice(0, newline);
    const value = newline === -1 ? undefined : item.slice(newline + 1);
    // A credential helper's command line, or a URL rewritten, may carry a password: the setting is named without it.
    const holdsUrl = /^(credential|url)\./.test(key);
    const entry = { scope, origin: shownOrigin(origin, cwd, root), key: holdsUrl ? key.replace(/\/\/[^/@]*@/g, '//…@') : key };
    entries.push(value === undefined || holdsUrl ? entry : { ...entry, value });
  }
  return entries;
}

/** A configuration entry's origin as shown: its file relative to `root` when it lies there, else as git names it. */
function shownOrigin(origin: string, cwd: string, root: string): string {
  if (!origin.startsWith('file:')) return origin;
  return shownPath(path.resolve(cwd, origin.slice('file:'.length)), root);
}

/** The executable files of the hooks folder `folder` (not git's `.sample`s), which git runs on their events. */
function hooksIn(folder: string, root: string): GitHook[] {
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .filter((name) => !name.endsWith('.sample') && executableFile(path.join(folder, name)))
    .sort()
    .map((name) => ({ name, shown: shownPath(path.join(folder, name), root) }));
}

function executableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `file` relative to `root` with `/` when it lies in it, else absolute. */
function shownPath(file: string, root: string): string {
  const relative = path.relative(root, file);
  if (relative === '' || leadsOutside(relative) || path.isAbsolute(relative)) return file;
  return relative.split(path.sep).join('/');
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 200) || 'no reason given';
}
