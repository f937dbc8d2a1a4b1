import { visibleControls } from '../../shared/visibleCharacters';
import { oneLine } from '../text/oneLine';
import { programName } from './commandAllowRules';
import { programsWithHelpers } from './programHelpers';

/** One entry of git's configuration as `git config --list --show-scope --show-origin -z` prints it. */
export interface GitConfigEntry {
  /** `system`, `global`, `local`, `worktree` or `command`. */
  scope: string;
  /** The file it was read from, as the user is shown it (`.git/config`, `tools/git.cfg`), or how else it was given. */
  origin: string;
  /** The key as git prints it: section and name in lower case, a subsection as written (`diff.evil.textconv`). */
  key: string;
  /** Absent for a key written without `=` (a true boolean). */
  value?: string;
}

/** A hook file in the hooks folder git uses for the repository (`.git/hooks`, or where its `core.hooksPath` leads). */
export interface GitHook {
  /** Its name, which is the event it runs on (`pre-commit`). */
  name: string;
  /** Its path as the user is shown it. */
  shown: string;
}

// Settings whose value git runs as a program, or which make it run one, while it shows, compares or searches what a
// repository holds: diff drivers and text conversions (`git diff`, `git log -p`), filters (`git status` cleans a file
// to compare it) and the signature program (`log.showSignature`).
const readingKeys = /^(diff\.external|diff\..+\.(command|textconv)|filter\..+\.(clean|smudge|process)|gpg\.program|gpg\.[^.]+\.program|gpg\.ssh\.defaultkeycommand)$/;

// And for every other subcommand (a commit, a merge, a fetch): editors, merge drivers, transports and credentials, tools,
// pagers, trailers, submodules' update commands, and where a URL is taken instead (`url.<ext::…>.insteadOf`); also the
// alias of the subcommand (git takes an alias only for a name it has no command of: never one of `readingSubcommands`).
const otherKeys =
  /^(merge\..+\.driver|core\.(sshcommand|gitproxy|editor|askpass|pager|alternaterefscommand)|sequence\.editor|pager\..+|credential\.(.+\.)?helper|remote\..+\.(uploadpack|receivepack|vcs)|(diff|merge)tool\..+\.(cmd|path)|(diff|merge)\.(gui)?tool|trailer\..+\.(command|cmd)|submodule\..+\.update|sendemail\..+|imap\.tunnel|web\.browser|browser\..+\.(cmd|path)|man\..+\.(cmd|path)|protocol\.(.+\.)?allow|url\..+\.(push)?insteadof|ssh\.variant)$/;

// Subcommands that only show, compare or search what the repository holds: of the hooks, they can run only
// `post-index-change` (`git status` writes the refreshed index), and of the settings only `readingKeys`.
const readingSubcommands = new Set([
  'status', 'diff', 'log', 'show', 'blame', 'annotate', 'grep', 'ls-files', 'ls-tree', 'rev-parse', 'rev-list', 'describe',
  'shortlog', 'whatchanged', 'cat-file', 'diff-files', 'diff-index', 'diff-tree', 'name-rev', 'for-each-ref', 'show-ref',
  'count-objects', 'check-ignore', 'check-attr', 'merge-base', 'range-diff', 'cherry', 'show-branch', 'version', 'help',
]);

// Git LFS's own filter as `git lfs install --local` writes it (actions/checkout with `lfs: true` too): it runs the
// git-lfs of the user's PATH, the program a rule for `git lfs` runs.
const lfsFilter = /^filter\.lfs\.(clean|smudge|process)$/;
const lfsCommand = /^git-lfs (clean -- %f|smudge (--skip )?-- %f|filter-process( --skip)?)$/;

/** Scopes that are the repository's own: its `.git/config` (with every file it includes) and its worktree's. */
const repositoryScopes = new Set(['local', 'worktree']);

/** Most settings and hooks kept at all (a configuration of thousands is counted past them). */
const keptMost = 100;

/** The options `argv` (a git command) gives git before its subcommand (`-C sub`, `--git-dir=x`), and its subcommand. */
export function gitGlobalOptions(argv: readonly string[]): { options: string[]; subcommand?: string } {
  // Stryker disable next-line ArrayDeclaration: programsWithHelpers always lists git, so the fallback is never taken
  const valued = programsWithHelpers['git'] ?? [];
  for (let index = 1; index < argv.length; index++) {
    // Stryker disable next-line StringLiteral: index is below argv.length, so argv[index] is always a string
    const word = argv[index] ?? '';
    if (word.startsWith('-')) {
      if (valued.includes(word)) index++;
      continue;
    }
    return { options: argv.slice(1, index), subcommand: word };
  }
  return { options: argv.slice(1) };
}

/**
 * What the repository's own git configuration makes git run for the git command `argv`, each in the user's words
 * (`diff.evil.textconv = ./conv.sh (.git/config)`, `the hook post-index-change (.git/hooks/post-index-change)`), at
 * most 100 and then how many more (`shownRepositoryPrograms` of `commandApprovalText.ts` says them in a question): the
 * settings of `config` of the repository's scopes (its `.git/config` and what it
 * includes, its worktree's) that name a program git runs, and the `hooks` git may run for that subcommand. A command
 * that only shows, compares or searches (`git status`, `git log`, `git diff`) counts only the diff drivers, text
 * conversions, filters, signature programs and the `post-index-change` hook; any other every setting that runs a
 * program (editors, transports, credential helpers, pagers…), the alias of its subcommand and every hook. Empty for another program,
 * and when the repository names none. `core.fsmonitor` is not among them: git is always told not to run one; nor Git
 * LFS's filter as `git lfs install` writes it, which runs the `git-lfs` of the user's `PATH`.
 */
export function gitRepositoryPrograms(argv: readonly string[], config: readonly GitConfigEntry[], hooks: readonly GitHook[]): string[] {
  if (programName(argv[0] ?? '') !== 'git') return [];
  const { subcommand } = gitGlobalOptions(argv);
  const reading = subcommand !== undefined && readingSubcommands.has(subcommand);
  const settings = config.filter(
    (entry) =>
      repositoryScopes.has(entry.scope) &&
      // Stryker disable next-line StringLiteral: no text but git-lfs's own commands passes lfsCommand, so any stand-in for a missing value counts the key alike
      !(lfsFilter.test(entry.key) && lfsCommand.test(entry.value ?? '')) &&
      (readingKeys.test(entry.key) || (!reading && (otherKeys.test(entry.key) || entry.key === `alias.${subcommand ?? ''}`))),
  );
  const hooksThatRun = reading ? hooks.filter((hook) => hook.name === 'post-index-change') : hooks;
  const named = [
    ...settings.map((entry) => `${entry.key}${entry.value === undefined ? '' : ` = ${entry.value}`} (${entry.origin})`),
    ...hooksThatRun.map((hook) => `the hook ${hook.name} (${hook.shown})`),
  ].map((text) => oneLine(visibleControls(text), 200));
  if (named.length <= keptMost) return named;
  return [...named.slice(0, keptMost), `and ${named.length - keptMost} more`];
}
