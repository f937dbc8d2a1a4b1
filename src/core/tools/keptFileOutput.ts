import { holdsPrivateKey, isCredentialFile, withheldPrivateKey, withoutPrivateKeys } from '../workspace/credentialFiles';
import { programName } from './commandAllowRules';

/** What stands in a command's output for the lines of a file tools keep from the model, after the line naming the file. */
export const withheldFileLines = '[the lines of a credentials file: kept from the model]';

// Terminal escapes (colors, hyperlinks) a program may put around a file's name (`rg --color=always`, `git log -p --color`):
// taken out before the name is judged, never from the output itself.
const terminalEscapes = /\u001b\[[0-9;:?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

// The line that starts one file's part of a patch: git's (`diff --git a/.env b/.env`, `diff --cc .env`) and diff's comparing
// two folders (`diff ./.env other/.env`, `diff -u a/.env b/.env`); the names follow it.
const diffHeader = /^diff (?:--git |--cc |--combined )?(.*)/;
// Lines that end one file's part: the next file's header, the next commit of a log, diff's notes on its folders.
const partEnd = /^(?:diff |commit [0-9a-f]{7,}|Only in |Common subdirectories: )/;
// A search's match as JSON (`rg --json`): the file it is in.
const jsonPath = /"path":\{"text":"((?:[^"\\]|\\.)*)"/;
// How far into a line a search's file name is looked for, and at how many separators.
const maxNameLength = 1024;
const maxSeparators = 16;
const maxRemembered = 10_000;

/**
 * `text`, the output of the command `argv`, without the lines a file tools keep from the model (`isCredentialFile`: `.env`,
 * `credentials.json`, a key) gave it, though the command named no such file: its part of a patch (`git log -p`,
 * `git show`, `git diff`, `diff dirA dirB` over a committed or copied `.env`), from the line after its header to the
 * next file's header or commit, and each line of a search that starts with such a file's name, as ripgrep, grep and git
 * grep print them (`credentials.json:…`, `HEAD:.env:…`, a context line's `credentials.json-…`, `--null`'s `\0`), each
 * run of them replaced by `withheldFileLines` after the name; `--json`'s lines of such a file go; under a heading
 * (ripgrep's `--heading` or `--pretty`, git grep's `--heading`) the lines after a kept file's name go up to the next blank
 * line. Everything else stays as it was. What hides a line's file (ripgrep's `--no-filename`, other separators; git's
 * `--line-prefix`) is `programRisks`' to ask about.
 */
export function withoutKeptFileLines(text: string, argv: readonly string[] = []): string {
  const filter = keptFileLineFilter(argv);
  return text.split('\n').flatMap(filter).join('\n');
}

/**
 * `withoutKeptFileLines` for output that comes a piece at a time (what a command streams to its step, which the step's
 * journal, the screen and a repair plan's prompt read): `write` gives back the complete lines of what came so far as
 * `withoutKeptFileLines` leaves them, and private keys out too (`withoutPrivateKeys`, a key's lines up to its last line
 * however the pieces cut it), keeping a line's start until its end comes; `end` gives back the rest.
 */
export function keptFileOutputStream(argv: readonly string[]): { write(text: string): string; end(): string } {
  const filter = keptFileLineFilter(argv);
  let pending = '';
  let inKey = false;
  const shown = (line: string): string[] => {
    if (inKey) {
      inKey = !privateKeyEnd.test(line);
      return [];
    }
    if (!holdsPrivateKey(line)) return filter(line);
    // A key's first line without its last: the lines up to its last are the key's (a line holds one key: PEM has no two on a line).
    inKey = !privateKeyEnd.test(line);
    return filter(withoutPrivateKeys(line));
  };
  // Each line with the break that ended it ("\n", "\r\n", or a progress bar's "\r"), which stays as the program wrote it;
  // a line left out goes with its break.
  const lines = (text: string): string => {
    const parts = text.split(/(\r\n|\r|\n)/);
    let kept = '';
    for (let index = 0; index < parts.length; index += 2) {
      const line = parts[index]!;
      const lineBreak = parts[index + 1] ?? '';
      if (line === '' && lineBreak === '') continue;
      const shownLines = shown(line);
      if (shownLines.length > 0) kept += `${shownLines.join('\n')}${lineBreak}`;
    }
    return kept;
  };
  return {
    write(text) {
      pending += text;
      // A progress bar redraws its line after a "\r": that ends a line too, unless a "\n" may follow it in the next piece.
      const end = Math.max(pending.lastIndexOf('\n'), pending.lastIndexOf('\r', pending.length - 2));
      if (end < 0) return '';
      const complete = pending.slice(0, end + 1);
      pending = pending.slice(end + 1);
      return lines(complete);
    },
    end() {
      const rest = pending;
      pending = '';
      return lines(rest);
    },
  };
}

// Where a private key ends: its last line (PEM, PGP), a PuTTY key's MAC.
const privateKeyEnd = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|Private-MAC:/;

/** A filter of one line at a time, which remembers what the lines before said (a kept file's part of a patch, its heading). */
function keptFileLineFilter(argv: readonly string[]): (line: string) => string[] {
  const headings = printsHeadings(argv);
  const graph = drawsGraph(argv);
  // git grep over a tree's revision puts the file after two or more fields (`HEAD:sub:.env:…`); other searches after one at most.
  const fields = programName(argv[0] ?? '') === 'git' && argv[1] === 'grep' ? maxSeparators : 1;
  // Search output names the same files again and again: each name is judged once (at most `maxRemembered` of them).
  const judged = new Map<string, boolean>();
  const kept = (name: string): boolean => {
    const known = judged.get(name);
    // Stryker disable next-line ConditionalExpression: a verdict judged again is the same verdict.
    if (known !== undefined) return known;
    const verdict = isKeptName(name);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: how many verdicts are remembered changes the time taken, not a verdict.
    if (judged.size < maxRemembered) judged.set(name, verdict);
    return verdict;
  };
  let skipping: 'part' | 'heading' | undefined;
  let last: string | undefined;
  const out = (...lines: string[]): string[] => {
    last = lines.at(-1);
    return lines;
  };
  return (printed) => {
    const line = withoutUrlCredentials(printed);
    const escaped = line.replace(terminalEscapes, '');
    // `git log --graph -p` draws its graph before every line (`| diff --git a/.env b/.env`), so no header started a line.
    const plain = graph ? escaped.replace(graphColumns, '') : escaped;
    if (skipping === 'part' && !partEnd.test(plain)) return [];
    if (skipping === 'heading' && plain !== '') return [];
    skipping = undefined;
    const header = diffHeader.exec(plain);
    if (header !== null) {
      if (!namesKeptFile(header[1]!)) return out(line);
      skipping = 'part';
      return out(line, withheldFileLines);
    }
    if (headings && kept(plain)) {
      skipping = 'heading';
      return out(line, withheldFileLines);
    }
    const json = jsonPath.exec(plain);
    if (json !== null && kept(json[1]!.replace(/\\(.)/g, '$1'))) return [];
    const name = searchLineOfKeptFile(plain, kept, fields);
    if (name === undefined) return out(line);
    // A line `withoutPrivateKeys` already took the key out of holds nothing more; the rest of a run of lines goes into one.
    const instead = plain.slice(name.length + 1) === withheldPrivateKey ? plain : `${name}${plain[name.length]}${withheldFileLines}`;
    return last === instead ? [] : out(instead);
  };
}

/** What stands in a command's output for a URL's password or token (`https://user:[kept from the model]@host`). */
export const withheldUrlCredential = '[kept from the model]';

// A URL's user info with a password (`https://x-access-token:ghs_…@github.com`, `redis://:pass@host`), from its `://` to its `@`:
// a remote git prints (`git remote -v`, `git ls-remote --get-url`) as the user or a tool cloned it. Each match starts at a
// `://` and stops at the first `/`, so none overlaps another: linear time on any line.
const urlPassword = /:\/\/([^/?#@\s:]*):([^/?#@\s]+)@/g;
// A URL's user info that is a token without a password (`https://ghp_…@github.com`).
const urlTokenUser = /:\/\/([A-Za-z0-9_-]{16,})@/g;

/**
 * `line` with the credentials of its URLs replaced by `withheldUrlCredential`: a password in the user info, and user info
 * that is a token (16 or more letters, digits, `_` and `-`, mixing letters and digits). Names (`git@`, `deploy@`) stay.
 */
export function withoutUrlCredentials(line: string): string {
  if (!line.includes('://')) return line;
  return line
    .replace(urlPassword, (_whole, user: string) => `://${user}:${withheldUrlCredential}@`)
    .replace(urlTokenUser, (whole, user: string) => (/[A-Za-z]/.test(user) && /\d/.test(user) ? `://${withheldUrlCredential}@` : whole));
}

// The columns git's `--graph` draws before a line: `*`, `|`, `/`, `\`, `_` and spaces (an octopus merge's `-.` only on its commit's line).
const graphColumns = /^[*|/\\_ ]+/;

/** Whether `argv` is git's drawing a graph before each line (`git log --graph`, which git takes unabbreviated only). */
function drawsGraph(argv: readonly string[]): boolean {
  return programName(argv[0] ?? '') === 'git' && argv.includes('--graph');
}

/** Whether `argv` prints each file's name on a line of its own above its lines: ripgrep's `--heading` or `--pretty` (`-p`), git grep's `--heading`. */
function printsHeadings(argv: readonly string[]): boolean {
  const name = programName(argv[0] ?? '');
  if (name === 'rg') return argv.some((word) => word === '--heading' || word === '--pretty' || /^-[A-Za-z]*p/.test(word));
  // git takes an abbreviation of a long option (`--head`).
  return name === 'git' && argv[1] === 'grep' && argv.some((word) => word.length >= 5 && '--heading'.startsWith(word));
}

/**
 * Whether a patch header's names (`a/.env b/.env`, `-u ./.env other/.env`, quoted when git quotes them) name a kept file, or
 * an object by its id, as git names two stored files compared by their ids (`git diff 3f2a9c1 8e1b2d4`: `a/3f2a9c1 b/8e1b2d4`),
 * which says nothing of which files they are.
 */
function namesKeptFile(names: string): boolean {
  return names.split(' ').some((word) => {
    const name = word.replace(/"/g, '');
    return !name.startsWith('-') && (isKeptName(name) || objectIdName.test(name));
  });
}

// A name that is an object's id, whole or abbreviated, after git's `a/`, `b/` (or no prefix).
const objectIdName = /^(?:[ab]\/)?[0-9a-f]{4,64}$/i;

/**
 * Whether `name`, as a program prints a file's name (`./.env`, `a/.env`, `/dev/null`), names a file tools keep from the model.
 * A name with spaces counts only when its first word is a kept name too (`.env copy`, `credentials (1).json`): text before a
 * colon (`docs/setup.md:Copy .env.example to .env: …`) is no file's name.
 */
function isKeptName(name: string): boolean {
  // `isCredentialFile` judges a name by its last part and places by where they end: a prefix (`./`, `a/`) changes nothing.
  const last = name.slice(name.lastIndexOf('/') + 1);
  if (/\s/.test(last) && !isCredentialFile(last.split(/\s/)[0]!)) return false;
  return isCredentialFile(name);
}

/**
 * The text of a search's `line` up to the name of the kept file it is from, or `undefined`: a name ending a field (a field
 * ends at a `:` or `\0`) or ahead of a `-` or `=` in one (a context line; git grep's function line of `-p` and `-W`), in
 * the first field or one of the `after` fields after it: a revision comes first (`HEAD:.env:…`), and git grep's of a tree
 * may hold a `:` of its own (`HEAD::.env:…`, `HEAD:sub:.env:…`, `HEAD:./:.env=…`). `kept` judges a name (`isKeptName`, remembered).
 */
function searchLineOfKeptFile(line: string, kept: (name: string) => boolean, after: number): string | undefined {
  const head = line.slice(0, maxNameLength);
  let start = 0;
  for (let field = 0; field <= after; field++) {
    const rest = head.slice(start);
    const end = rest.search(/[:\0]/);
    const text = end < 0 ? rest : rest.slice(0, end);
    const names = [...text.matchAll(/[-=]/g)].slice(0, maxSeparators).map((separator) => text.slice(0, separator.index));
    if (end >= 0) names.push(text);
    const name = names.find(kept);
    if (name !== undefined) return head.slice(0, start) + name;
    if (end < 0) return undefined;
    start += end + 1;
  }
  return undefined;
}
