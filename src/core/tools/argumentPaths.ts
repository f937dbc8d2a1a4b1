import type { WorkspaceFs } from '../workspacePorts';
import { visibleControls } from '../../shared/visibleCharacters';
import { capText } from '../text/capText';
import { normalizeWorkspacePath, PathRefusedError } from '../workspace/resolveInRoot';
import { isWorkspaceError } from '../workspace/workspaceError';
import { withheldRead } from './withheldFiles';

/** Most arguments of one command whose paths are looked at: a longer command line asks for what is past them. */
const maxLooked = 64;

/**
 * The paths an argument may name, as the program would take them: the word itself, each value after `=` or `,`, a
 * response file after `@` (`@args.txt`), and a file after a `:` (git's `HEAD:.npmrc`, `:id_rsa`, `-L1,5:id_rsa`; an
 * outside attack printed them under "git show ..."). Options without a value (`-v`, `--fix`) name none.
 */
function namedPaths(argument: string): string[] {
  const parts = argument.startsWith('-') ? [...argument.split(/[=,]/).slice(1), ...shortValues(argument)] : argument.split(/[=,]/);
  // Before a `:` too: Windows opens a file's data stream by its name and the stream's (`.env::$DATA` is `.env`).
  const named = parts
    .map((part) => (part.startsWith('@') ? part.slice(1) : part))
    .flatMap((part) => [part, part.slice(part.lastIndexOf(':') + 1), part.slice(0, Math.max(part.indexOf(':'), 0))]);
  // Each name of a path may end in spaces, which Windows drops (`.env ` and `.ssh /id_rsa` open `.env` and `.ssh/id_rsa` there);
  // a space inside a name names no file looked for.
  return [...new Set(named)].filter((part) => /\S/.test(part) && part.split(/[/\\]/).every((name) => /^\S* *$/.test(name)));
}

/**
 * What a cluster of short options may take as a value glued to its last letter: everything after each of its leading letters
 * and digits (`-f.env` and `-nf.env` are grep's `-f .env`, `-X.env` diff's, `-L:main:.env` git log's; an outside attack
 * printed them). A long option (`--x`) glues none. Of a long cluster, after its last `maxGlued` letters only, so a word costs a
 * bounded number of looks: a kept name made of letters alone is short (`credentials`), and any other ends the cluster at its
 * first other character (`.env`, `id_rsa`).
 */
function shortValues(argument: string): string[] {
  // A long option (`--x`) matches no letter after its first dash: it glues none.
  const letters = (/^-[a-z\d]*/i.exec(argument)?.[0].length ?? 1) - 1;
  const first = Math.max(2, letters + 2 - maxGlued);
  return Array.from({ length: letters + 2 - first }, (_, index) => argument.slice(first + index)).filter((value) => value !== '');
}

/** How many of the last letters of a cluster of short options `shortValues` looks after. */
const maxGlued = 64;

/**
 * Why an allow rule does not cover a command whose words are all allowed: an argument names a path of the workspace
 * that leads out of it through a link (`etclink/hostname` with `etclink -> /etc`), a file with another hard link (unless
 * the workspace allows them: another name may be outside), or a file tools keep from the model
 * (`.env`, a key: a command's output reaches the model as a tool's would). `undefined` when none does. Paths are taken
 * relative to `cwd`; absolute and upward paths are `namesPathOutside`'s, which asks before this.
 */
export async function pathArgumentNotCovered(workspace: WorkspaceFs, cwd: string, args: readonly string[], signal: AbortSignal): Promise<string | undefined> {
  if (args.length > maxLooked) return `the command has more than ${maxLooked} arguments, more than the rule's check of the paths they name looks at`;
  for (const argument of args) {
    for (const part of namedPaths(argument)) {
      let path: string;
      try {
        path = normalizeWorkspacePath(cwd === '' ? part : `${cwd}/${part}`);
      } catch {
        continue;
      }
      const shown = `"${visibleControls(capText(part, 200))}"`;
      try {
        const withheld = await withheldRead(workspace, path, signal);
        if (withheld !== undefined) return `${shown} is a file tools keep from the model (${withheld.file}), and a command's output reaches the model`;
      } catch (error) {
        if (error instanceof PathRefusedError) return `${shown} leads out of the workspace (${error.reason})`;
        if (isWorkspaceError(error, 'hard_link')) return `${shown} is a hard link: the same file has other names, and one may be outside the workspace`;
        throw error;
      }
    }
  }
  return undefined;
}
