/**
 * A tool's result in words, for a run's summary line: what a command printed last, what a file tool did to its file,
 * what a read read, a folder made, a listing that could not read some folders; `undefined` for a result no tool of
 * these gives (the summary then shows its fields).
 */
export function describedResult(result: unknown, maxLine: number): string | undefined {
  return commandLine(result, maxLine) ?? fileChangeLine(result) ?? readLine(result, maxLine) ?? directoryLine(result) ?? partialListingLine(result);
}

/**
 * A result that only says what a step changed (a file written, edited or deleted, a folder made) in words, "created
 * hello.txt"; `undefined` for any other, whose text (a read's content, a command's output) is worth showing as it is.
 */
export function changeResultLine(result: unknown): string | undefined {
  return fileChangeLine(result) ?? directoryLine(result);
}

/**
 * A tool's result as a step's output shows it to a person: what a command printed (`commandOutputText`), what a file tool
 * did ("created notes.md"), what a read read with its text; `undefined` for any other result (shown by its fields). The
 * fields of these ("path: a.md / operation: created / changed: true / bytes: 16") read as internals (a trial).
 */
export function shownResultText(result: unknown): string | undefined {
  const read = readOf(result);
  return commandOutputText(result) ?? changeResultLine(result) ?? (read === undefined ? undefined : `${read.what}:\n${read.content}`);
}

/**
 * What a command's result (`exitCode` and `stdout`, as `run_command` gives it) shows a person: what it printed (its
 * output, else its error output), or that it printed nothing with its exit code, never the result's fields ("exitCode: 0
 * / signal: null / stdout: …" read as internals: a trial). `undefined` for any other result.
 */
export function commandOutputText(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const { exitCode, stdout, stderr } = result as Record<string, unknown>;
  if (typeof exitCode !== 'number' || typeof stdout !== 'string') return undefined;
  if (stdout.trim() !== '') return stdout.trimEnd();
  if (typeof stderr === 'string' && stderr.trim() !== '') return stderr.trimEnd();
  return `The command printed nothing (exit code ${exitCode}).`;
}

/**
 * A command's result (`exitCode` and `stdout`, as `run_command` gives it) in words: the project's program that ran
 * (`program`, when not PATH's), its exit code and what its tests counted (`testCounts`), else the last line it printed,
 * rather than its JSON with escaped newlines. `undefined` for any other result.
 */
function commandLine(result: unknown, maxLine: number): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const { exitCode, stdout, stderr, program } = result as Record<string, unknown>;
  if (typeof exitCode !== 'number' || typeof stdout !== 'string') return undefined;
  const output = stdout.trim() === '' && typeof stderr === 'string' ? stderr : stdout;
  // A project's own program (`.venv/bin/mypy`) is named: it is not the one PATH gives.
  const ran = typeof program === 'string' ? `ran ${program.slice(0, maxLine)}: ` : '';
  const tests = testCounts(output);
  if (tests !== undefined) return `${ran}exit code ${exitCode}, tests: ${tests.slice(0, maxLine)}`;
  // Only the end is read: the last line of a 5 MB output must not cost a split of all of it.
  const last = output.slice(-maxLine * 4).trimEnd().split('\n').pop()?.trim() ?? '';
  return last === '' ? `${ran}exit code ${exitCode}` : `${ran}exit code ${exitCode}, last output: ${last}`;
}

// How far from its end a test runner's output is searched for its counts: mocha prints its failures after them.
const testTail = 8192;
// TAP's closing comments (node --test, tap, tape): "# pass 3", "# fail 0"; node's last one is "# duration_ms 41.2".
const tapCount = /^# (tests|pass|fail) (\d+)$/gm;
const tapWords = { tests: 'run', pass: 'passed', fail: 'failed' } as const;
// A runner's own line of counts: "3 passed in 0.02s" (pytest), "3 passing (5ms)" and "1 failing" (mocha),
// "Tests:       1 failed, 2 passed, 3 total" (jest, vitest), "test result: ok. 3 passed; 0 failed" (cargo).
const countLine = /^[= \t]*(?:Tests:\s+|test result: \w+\.\s+)?\d+ (?:passed|passing|failed|failing)\b.*$/gm;

/**
 * What the tests a command ran counted, from the end of its output: TAP's counts ("3 run, 2 passed, 1 failed"), or a
 * runner's lines of counts ("3 passing (5ms); 1 failing"). `undefined` when it printed none: its last line then says.
 */
function testCounts(output: string): string | undefined {
  const tail = output.slice(-testTail);
  const tap = [...tail.matchAll(tapCount)];
  if (tap.some((match) => match[1] === 'pass') && tap.some((match) => match[1] === 'fail')) {
    // In words: "tests: tests 3, pass 3" said "tests" twice (a trial).
    return tap.slice(-3).map((match) => `${match[2]} ${tapWords[match[1] as keyof typeof tapWords]}`).join(', ');
  }
  const lines = [...tail.matchAll(countLine)].map((match) => withoutRules(match[0]).replace(/\s+/g, ' '));
  return lines.length === 0 ? undefined : lines.slice(-2).join('; ');
}

/** `line` without the `=` and blanks around it ("===== 3 passed in 0.02s =====" → "3 passed in 0.02s"), in linear time. */
function withoutRules(line: string): string {
  const rule = (at: number): boolean => line[at] === '=' || line[at] === ' ' || line[at] === '\t' || line[at] === '\r';
  let start = 0;
  let end = line.length;
  while (start < end && rule(start)) start++;
  while (end > start && rule(end - 1)) end--;
  return line.slice(start, end);
}

/**
 * A file tool's result (`write_file`, `edit_file`, `delete_file`: its path and what happened to it) in words: "edited
 * CHANGELOG.md", "left notes.md unchanged"; a newcomer read "path: CHANGELOG.md, operation: edited, changed: true, bytes: 196".
 */
function fileChangeLine(result: unknown): string | undefined {
  const change = fileChangeResult(result);
  if (change === undefined) return undefined;
  // "created a.txt", "edited b.txt": the operation reads as what the step did, "overwritten" as the past tense too.
  if (change.operation === 'unchanged') return `left ${change.path} unchanged`;
  return `${change.operation === 'overwritten' ? 'overwrote' : change.operation} ${change.path}`;
}

/** A file tool's result (`path`, `operation`, `changed`, as `write_file` and `edit_file` give it); `undefined` for any other. */
export function fileChangeResult(result: unknown): { path: string; operation: string } | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const { path, operation, changed } = result as Record<string, unknown>;
  return typeof path === 'string' && typeof operation === 'string' && typeof changed === 'boolean' ? { path, operation } : undefined;
}

/**
 * A read's result (`read_file`: path, content and lines) in words, with its first line: "read RELEASE (1 line): 0.4.0",
 * "read lines 3–9 of 40 of notes.js: export function add"; a newcomer read "path: RELEASE, content: 0.4.0, startLine: 1,
 * endLine: 1, totalLines: 1, truncated: false".
 */
function readLine(result: unknown, maxLine: number): string | undefined {
  const read = readOf(result);
  if (read === undefined) return undefined;
  // Its first line says what it holds (a version, a title); the whole text is the step's result.
  const opening = read.content.slice(0, maxLine * 4).split('\n').find((line) => line.trim() !== '')?.trim();
  return opening === undefined ? read.what : `${read.what}: ${opening.slice(0, maxLine)}`;
}

/** A read's result (`read_file`) as what was read ("read RELEASE (1 line)", "read lines 3–9 of 40 of a.ts") and its text. */
function readOf(result: unknown): { what: string; content: string } | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const { path, content, startLine: first, endLine: last, totalLines: total } = result as Record<string, unknown>;
  if (typeof path !== 'string' || typeof content !== 'string' || typeof first !== 'number' || typeof last !== 'number') return undefined;
  if (typeof total !== 'number') return undefined;
  const whole = first <= 1 && last >= total;
  return { what: whole ? `read ${path} (${plural(total, 'line', 'lines')})` : `read lines ${first}–${last} of ${total} of ${path}`, content };
}

/** A folder step's result (`create_directory`: path and whether it was made) in words: "created the folder docs/". */
function directoryLine(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const { path, created } = result as Record<string, unknown>;
  if (typeof path !== 'string' || typeof created !== 'boolean' || Object.keys(result).length !== 2) return undefined;
  return created ? `created the folder ${path}/` : `found the folder ${path}/ already there`;
}

/**
 * A listing or search that could not read some folders (`unreadableFolders`, as `list_files` and `search_text` give
 * it) in words, those folders first: its JSON would be cut before them, and a partial result would pass for the whole.
 * `undefined` for any other result.
 */
function partialListingLine(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const { unreadableFolders, unreadableFoldersNotNamed, matches, total } = result as Record<string, unknown>;
  if (!Array.isArray(unreadableFolders) || unreadableFolders.length === 0) return undefined;
  const count = unreadableFolders.length + (typeof unreadableFoldersNotNamed === 'number' ? unreadableFoldersNotNamed : 0);
  const named = unreadableFolders.slice(0, 3).map(String).join(', ');
  const folders = `could not read ${count === 1 ? '1 folder' : `${count} folders`} (${named}${count > 3 ? ', …' : ''})`;
  const found = Array.isArray(matches) ? plural(matches.length, 'match', 'matches') : typeof total === 'number' ? plural(total, 'file', 'files') : undefined;
  return found === undefined ? folders : `${found}; ${folders}`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

