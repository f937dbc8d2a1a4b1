import type { FileChangedInRun } from '../interactionPorts';
import type { WorkspaceFs } from '../workspacePorts';
import { normalizeWorkspacePath } from '../workspace/resolveInRoot';
import { programName } from './commandAllowRules';
import { caseFold } from '../workspace/caseFold';

/**
 * Where a program reads a file that decides what it runs, relative to its working folder.
 * Names are compared without case (a case-insensitive file system opens `Package.json` as
 * `package.json`); a name ending in `/` stands for every file under that folder.
 */
export interface DefiningFiles {
  /** In the working folder only (make reads its Makefile there). */
  here?: readonly string[];
  /** In the working folder or any folder above it, up to the workspace folder (npm looks upward for `package.json`). */
  up?: readonly string[];
  /**
   * In any folder of the workspace (git reads every `.gitattributes`, pytest every `conftest.py`); a name ending in `/` stands for every
   * file under a folder of that name, wherever it is.
   */
  anywhere?: readonly string[];
}

const npm: DefiningFiles = { up: ['package.json', '.npmrc'] };
const pnpm: DefiningFiles = { up: ['package.json', '.npmrc', 'pnpm-workspace.yaml', '.pnpmfile.cjs'] };
const bun: DefiningFiles = { up: ['package.json', 'bunfig.toml'] };
const gradle: DefiningFiles = {
  up: ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts', 'gradle.properties', 'gradle/wrapper/gradle-wrapper.properties'],
};
// What git reads as a repository's configuration: everything under a `.git` folder (or where a `.git` file points), `.gitmodules`,
// and the files that make any folder a repository git finds by itself (`HEAD`, `config`, `commondir` beside `objects/` and `refs/`),
// whose `config` can name a program git runs (`core.fsmonitor`, filters, hooks).
// Hooks: git runs a hook by its name from whichever folder `core.hooksPath` names (a repository's own configuration, or the user's
// for every repository), so a file of a hook's name counts in any folder (an outside attack ran a step-edited `.githooks/pre-commit`;
// `tools/hooks/pre-commit` under a repository's own hooksPath ran the same way). Any git command may run one: `git status` and
// `git add` write the index, which runs post-index-change. The folders hook managers keep their hooks in, and their configuration,
// which names the commands their installed hooks run (pre-commit's `.pre-commit-config.yaml`, lefthook's `lefthook.yml`).
const gitHooks = [
  'applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-commit', 'pre-merge-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit',
  'pre-rebase', 'post-checkout', 'post-merge', 'pre-push', 'pre-receive', 'update', 'proc-receive', 'post-receive', 'post-update',
  'reference-transaction', 'push-to-checkout', 'pre-auto-gc', 'post-rewrite', 'sendemail-validate', 'fsmonitor-watchman', 'post-index-change',
  'p4-changelist', 'p4-prepare-changelist', 'p4-post-changelist', 'p4-pre-submit',
];
const hookManagers = [
  '.husky/', '.githooks/', '.hooks/', '.lefthook/', '.pre-commit-config.yaml', 'lefthook.yml', 'lefthook.yaml', '.lefthook.yml', '.lefthook.yaml',
  'lefthook-local.yml', 'lefthook-local.yaml', '.lefthook-local.yml', '.lefthook-local.yaml',
];
const git: DefiningFiles = {
  up: ['.gitconfig', ...hookManagers],
  anywhere: ['.gitattributes', '.gitmodules', '.git', '.git/', 'HEAD', 'config', 'config.worktree', 'commondir', ...gitHooks],
};
const make: DefiningFiles = { here: ['Makefile', 'makefile', 'GNUmakefile'] };
const maven: DefiningFiles = { up: ['pom.xml', '.mvn/maven.config', '.mvn/jvm.config', '.mvn/extensions.xml', '.mvn/wrapper/maven-wrapper.properties'] };

/**
 * The files that define what a known program does, by program name as `programName` gives
 * it (lower case, last path part, no version suffix): a package manager's `package.json`
 * (its scripts) and configuration, make's Makefile, git's attributes (filters, diff
 * drivers), hooks and repository configuration (any `.git` folder, and a folder's `HEAD` or
 * `config` that would make it a repository), a test runner's or compiler's configuration. Only files that change
 * which code runs or how; the project's own sources are what the command is for.
 */
export const commandDefiningFiles: Readonly<Record<string, DefiningFiles>> = {
  npm,
  npx: npm,
  pnpm,
  pnpx: pnpm,
  yarn: { up: ['package.json', '.npmrc', '.yarnrc', '.yarnrc.yml'] },
  bun,
  bunx: bun,
  make,
  gmake: make,
  ninja: { here: ['build.ninja'] },
  git,
  pytest: { up: ['pytest.ini', '.pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini'], anywhere: ['conftest.py'] },
  tox: { up: ['tox.ini', 'pyproject.toml', 'setup.cfg'] },
  cargo: { up: ['.cargo/config.toml', '.cargo/config', 'rust-toolchain', 'rust-toolchain.toml'], anywhere: ['Cargo.toml', 'build.rs'] },
  tsc: { up: ['tsconfig.json'] },
  go: { up: ['go.mod', 'go.work'] },
  deno: { up: ['deno.json', 'deno.jsonc'] },
  eslint: { up: ['eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', 'eslint.config.ts', 'eslint.config.mts', 'eslint.config.cts'] },
  gradle,
  gradlew: gradle,
  mvn: maven,
  mvnw: maven,
};

// Package runners: the program they run is named by the first word after them (`npx eslint`), or after their subcommand (`uv run pytest`).
const runners = new Set(['npx', 'pnpx', 'bunx', 'uvx']);
const runnerSubcommands = new Set([
  'npm exec',
  'npm x',
  'pnpm exec',
  'pnpm dlx',
  'yarn exec',
  'yarn dlx',
  'yarn run',
  'bun x',
  'bun run',
  'uv run',
  'poetry run',
  'pipenv run',
  'pdm run',
  'hatch run',
]);
// Interpreters: the script they run is the first word after them that is no option (or an option's value).
const interpreters = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'node', 'nodejs', 'tsx', 'ts-node', 'python', 'py', 'pypy', 'perl', 'ruby', 'php', 'lua', 'luajit', 'deno', 'bun',
]);
const pythons = new Set(['python', 'py', 'pypy']);

/**
 * The files of `changed` (this run's changes so far) that define what `command` does:
 * the files `commandDefiningFiles` names for its program and for the program a runner
 * starts (`npx eslint`, `python -m pytest`), the script an interpreter runs
 * (`node script.js`, `bash build.sh`, `python -m tool`: `tool.py`), and a program given as a
 * relative path (`./gradlew`), each relative to the command's working folder `cwd`
 * (workspace-relative). Paths are compared once normalised (`./package.json`,
 * `sub/../package.json`, backslashes), without case, and also where the workspace's
 * links lead (`WorkspaceFs.locate`, when it has it): a change through a linked folder, or
 * of the file a defining file links to, counts. Errs towards finding: a path that cannot
 * be read is compared as written.
 */
export async function changedDefiningFiles(
  workspace: WorkspaceFs,
  command: { argv: readonly string[]; cwd: string },
  changed: readonly FileChangedInRun[],
  signal?: AbortSignal,
): Promise<FileChangedInRun[]> {
  if (changed.length === 0) return [];
  // The path as written and where its links lead, case kept: a link's name is looked up as it is spelt.
  const locate = async (path: string): Promise<string[]> => {
    const given = tidy(path);
    if (given === undefined) return [];
    const led = workspace.locate === undefined ? undefined : await workspace.locate(given, signal).then(tidy, () => undefined);
    return led === undefined || led === given ? [given] : [given, led];
  };
  const { exact, within, anywhere } = definingPaths(command.argv, await locate(command.cwd));
  const wanted = new Set<string>();
  for (const path of exact) for (const led of await locate(path)) wanted.add(caseFold(led));
  const found: FileChangedInRun[] = [];
  for (const change of changed) {
    const forms = (await locate(change.path)).map((form) => caseFold(form));
    const defines = forms.some(
      (form) =>
        wanted.has(form) ||
        within.some((folder) => form.startsWith(folder)) ||
        anywhere.some(
          (name) => form === name || form.endsWith(`/${name}`) || (name.endsWith('/') && (form.startsWith(name) || form.includes(`/${name}`))),
        ),
    );
    if (defines) found.push(change);
  }
  return found;
}

/**
 * The files that define what `command` does, by their exact place (its `package.json`, Makefile, the script it runs; the
 * names found in any folder are not looked for), that changed on disk after `since` (milliseconds since the epoch): by a
 * command of this run (`git checkout other -- package.json`), whose changes no step reports, or by another program. Each
 * with no step named. A file that cannot be looked at is left out: the command's own check refuses what it must.
 */
export async function definingFilesChangedSince(
  workspace: WorkspaceFs,
  command: { argv: readonly string[]; cwd: string },
  since: number,
  signal?: AbortSignal,
): Promise<FileChangedInRun[]> {
  const cwd = tidy(command.cwd);
  if (cwd === undefined) return [];
  const changed: FileChangedInRun[] = [];
  for (const path of new Set(definingPaths(command.argv, [cwd]).exact)) {
    const stat = await workspace.stat(path, signal).catch(() => undefined);
    if (stat?.type === 'file' && stat.mtimeMs > since) changed.push({ path, stepIds: [] });
  }
  return changed;
}

/**
 * This run's changes from its steps' `filesChanged` (the run state), each path once with
 * every step that changed it, in the order the steps are listed.
 */
export function filesChangedBySteps(steps: Readonly<Record<string, { filesChanged?: readonly string[] }>>): FileChangedInRun[] {
  const byPath = new Map<string, string[]>();
  for (const [stepId, step] of Object.entries(steps)) {
    for (const path of step.filesChanged ?? []) {
      const stepIds = byPath.get(path) ?? [];
      if (!stepIds.includes(stepId)) stepIds.push(stepId);
      byPath.set(path, stepIds);
    }
  }
  return [...byPath].map(([path, stepIds]) => ({ path, stepIds }));
}

/**
 * The defining files of `argv` run in each of `folders`: exact paths, folders every file under which counts (lower case), and names found in any folder (lower
 * case).
 */
function definingPaths(argv: readonly string[], folders: readonly string[]): { exact: string[]; within: string[]; anywhere: string[] } {
  const exact: string[] = [];
  const within: string[] = [];
  const anywhere: string[] = [];
  const add = (folder: string, name: string): void => {
    const path = join(folder, name);
    if (path === undefined) return;
    if (name.endsWith('/')) within.push(`${caseFold(path)}/`);
    else exact.push(path);
  };
  for (const files of programsOf(argv).flatMap((name) => (Object.hasOwn(commandDefiningFiles, name) ? [commandDefiningFiles[name] as DefiningFiles] : []))) {
    for (const folder of folders) {
      for (const name of files.here ?? []) add(folder, name);
      for (const above of foldersUp(folder)) for (const name of files.up ?? []) add(above, name);
    }
    anywhere.push(...(files.anywhere ?? []).map((name) => caseFold(name)));
  }
  for (const folder of folders) for (const script of scriptsOf(argv)) add(folder, script);
  return { exact, within, anywhere };
}

/** The program names `argv` runs: its own, and the one a runner starts (`npx eslint`, `uv run pytest`, `python -m pytest`). */
function programsOf(argv: readonly string[]): string[] {
  const name = programName(argv[0] ?? '');
  const names = [name];
  const start = runners.has(name) ? 1 : runnerSubcommands.has(`${name} ${argv[1] ?? ''}`) ? 2 : undefined;
  const target = start === undefined ? undefined : argv.slice(start).find((word) => !word.startsWith('-'));
  if (target !== undefined) names.push(programName(target));
  const module = pythons.has(name) ? moduleOf(argv) : undefined;
  if (module !== undefined) names.push(programName(module));
  return names;
}

/** The files `argv` runs as code, relative to its working folder: a program given as a relative path, an interpreter's script, a Python module's file. */
function scriptsOf(argv: readonly string[]): string[] {
  const program = argv[0] ?? '';
  const scripts = /[/\\]/.test(program) ? [program] : [];
  const name = programName(program);
  if (!interpreters.has(name)) return scripts;
  if (pythons.has(name)) {
    const module = moduleOf(argv);
    if (module !== undefined) return [...scripts, ...moduleFiles(module)];
  }
  // `deno run x.ts`, `bun run x.js`: the subcommand is no script.
  const from = (name === 'deno' || name === 'bun') && argv[1] === 'run' ? 2 : 1;
  for (let index = from; index < argv.length; index++) {
    const word = argv[index] ?? '';
    if (word.startsWith('-') && word !== '-') continue;
    scripts.push(word);
    // A word after an option may be its value (`node --require ./setup.js test.js`): the script is the first word after none.
    if (!(argv[index - 1] ?? '').startsWith('-') || index === from) break;
  }
  return scripts;
}

/**
 * The files Python runs for `-m a.b`, relative to the working folder (first on its path): each package's `__init__.py` along the
 * dotted name and each part as a module of its own (`a.py`, `a/__init__.py`, `a/b.py`, `a/b/__init__.py`, `a/b/__main__.py`). A
 * package's `__init__.py` runs before its `__main__.py` (an outside attack: a step-written `pytest/__init__.py` ran under an
 * allowed `python -m pytest`; a `json.py` under `python -m json.tool`).
 */
function moduleFiles(module: string): string[] {
  const parts = module.split('.');
  const files = parts.flatMap((_, index) => {
    const path = parts.slice(0, index + 1).join('/');
    return [`${path}.py`, `${path}/__init__.py`];
  });
  return [...files, `${parts.join('/')}/__main__.py`];
}

/** The module of `python -m <module>`, if any. */
function moduleOf(argv: readonly string[]): string | undefined {
  const at = argv.indexOf('-m');
  return at === -1 ? undefined : argv[at + 1];
}

/** `folder` and every folder above it, up to the workspace folder (`''`). */
function foldersUp(folder: string): string[] {
  const parts = folder === '' ? [] : folder.split('/');
  return parts.map((_, index) => parts.slice(0, parts.length - index).join('/')).concat('');
}

/** `name` in `folder`, normalised; `undefined` when it leads out of the workspace or is no workspace path. */
function join(folder: string, name: string): string | undefined {
  return tidy(folder === '' ? name : `${folder}/${name}`);
}

/** `path` normalised (`./a`, `b/../a` and `.\a` are `a`), case kept; `undefined` when it is no workspace path. */
function tidy(path: string): string | undefined {
  try {
    return normalizeWorkspacePath(path);
  } catch {
    return undefined;
  }
}
