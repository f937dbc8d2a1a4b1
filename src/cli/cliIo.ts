import { lstatSync, readlinkSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import { parsePlanFileText } from '../core/plan/planFile';
import { oneLine } from '../core/text/oneLine';
import type { Plan } from '../core/plan/planSchema';
import { readBoundedText } from '../node/readBoundedText';
import { lockRun } from '../node/runLock';
import { firstRunId } from '../core/engine/replanRecord';
import type { LoadedJournal, RunStore } from '../core/runStorePorts';
import { terminalSafe } from './terminalSafe';
import { errorMessage } from '../shared/errorMessage';
import { shellWord } from './shellWord';
import { linkOutOf } from './linkOut';

/** Where a CLI command writes: `out` for results, `err` for progress and messages. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** True when questions can be asked interactively. */
  interactive: boolean;
  /** Shows `question` and resolves to the line typed, trimmed; one question at a time. */
  ask: (question: string, signal: AbortSignal) => Promise<string>;
}

/**
 * The command line's terminal: results on `stdout`, everything else and the questions on
 * `stderr`, answers from `stdin`. This is the output boundary: every text passes through
 * `terminalSafe` here, whatever part of a plan, model, file or tool it holds.
 */
export function terminalIo(streams: {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  interactive: boolean;
  /** Ctrl+C typed while a question waits (by default the process's own SIGINT, which stops a run as at any other moment). */
  onInterrupt?: () => void;
}): CliIo {
  const interrupt = streams.onInterrupt ?? ((): void => void process.kill(process.pid, 'SIGINT'));
  let queue: Promise<unknown> = Promise.resolve();
  const out = lineWriter(streams.stdout);
  const err = lineWriter(streams.stderr);
  // Messages (progress of steps running in parallel) that come while a question waits on stderr are held and
  // written once it is answered: written then, they would land on the question's line, where the answer is typed.
  let asking = false;
  const held: string[] = [];
  let dropped = 0;
  const release = (): void => {
    for (const line of held.splice(0)) err(line);
    if (dropped > 0) err(`… ${dropped} more message${dropped === 1 ? '' : 's'} came while the question waited (see the run's journal)`);
    dropped = 0;
  };
  return {
    out: (text) => out(terminalSafe(text)),
    err: (text) => {
      if (!asking) return err(terminalSafe(text));
      if (held.length < maxHeldMessages) held.push(terminalSafe(text));
      else dropped++;
    },
    interactive: streams.interactive,
    ask(question, signal) {
      const next = queue.then(async () => {
        const readline = createInterface({ input: streams.stdin, output: streams.stderr });
        // Ctrl+C at a question is the user's Ctrl+C: the run stops and can be resumed. Left to readline, it failed only the
        // step that asked ("Aborted with Ctrl+C"), and a repair plan then went on with the run.
        readline.on('SIGINT', interrupt);
        asking = true;
        try {
          const answer = readline.question(terminalSafe(question), { signal });
          return (await answer).trim();
        } catch (error) {
          // Ctrl+D (the end of input) at a question too: it failed the step that asked ("Aborted with Ctrl+D"), exit 1, where
          // Ctrl+C stops the run to resume (a trial). The question is left to the run's stop, as Ctrl+C leaves it.
          if (signal.aborted) throw error;
          interrupt();
          return await new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }));
        } finally {
          readline.close();
          asking = false;
          release();
        }
      });
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

/** Most messages held while a question waits; the rest are counted. */
const maxHeldMessages = 200;

/**
 * Writes lines to `stream` until its reader goes away (`EPIPE`, as with `| head`, or `EIO`,
 * a closed terminal): then the rest is dropped, since no one reads it, and the command goes
 * on (a run keeps its journal) instead of dying of an unhandled stream error. Any other
 * stream error still surfaces.
 */
function lineWriter(stream: Writable): (line: string) => void {
  let readerGone = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'EIO') throw error;
    readerGone = true;
  });
  return (line) => {
    if (!readerGone) stream.write(`${line}\n`);
  };
}

/** A failure the user can fix; its message is printed without a stack, with exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The most bytes read of a plan file. */
export const maxPlanFileBytes = 10_000_000;

/** Longest warning the CLI prints, in characters (then cut, marked). */
const maxWarningChars = 1_000;

/**
 * A warning as the CLI prints it, on a line of its own: one line of at most `maxWarningChars`. A warning quotes what a
 * plan, a model, a journal, a task file or a workspace's mcp.json holds, whose line breaks would print lines that read
 * as the CLI's own.
 */
export function warningLine(warning: string): string {
  return oneLine(warning, maxWarningChars);
}

/**
 * Reads (at most `maxPlanFileBytes`, counted as read: a device or endless pipe stops there)
 * and parses a plan file; throws a `UsageError` naming the file and every problem. Each
 * warning is one bounded line: it quotes the file (a value, a field's name, the text around
 * broken JSON), and the commands print each as a line of their own.
 */
export async function loadPlanFile(path: string): Promise<{ plan: Plan; warnings: string[] }> {
  let text: string | undefined;
  try {
    text = await readBoundedText(path, maxPlanFileBytes);
  } catch (error) {
    throw new UsageError(cannotRead(`the plan file ${path}`, path, error));
  }
  if (text === undefined) throw new UsageError(`The plan file ${path} is larger than ${maxPlanFileBytes} bytes, the most read; is it the right file?`);
  const parsed = parsePlanFileText(text);
  if (!parsed.ok) throw new UsageError(`${path} is not a usable plan:\n${parsed.errors.map((error) => `  - ${error}`).join('\n')}`);
  return { plan: parsed.plan, warnings: parsed.warnings.map(warningLine) };
}

/**
 * Why `what` (the file at `path`, as the user named it) could not be read, in the user's words: the file system's own text
 * ("ENOENT: no such file or directory, open 'nope.md'") only for what has none.
 */
export function cannotRead(what: string, path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return `Cannot read ${what}: there is no file ${resolve(path)}. Check the path.`;
  if (code === 'EISDIR') return `Cannot read ${what}: ${resolve(path)} is a folder, not a file.`;
  if (code === 'EACCES' || code === 'EPERM') return `Cannot read ${what}: you may not read ${resolve(path)} (permission denied).`;
  return `Cannot read ${what}: ${errorMessage(error)}`;
}

/**
 * Checks that `path` is an existing folder, before anything is written under it: the
 * command line never creates a workspace. Throws a `UsageError` saying what is wrong.
 */
export async function requireWorkspace(path: string): Promise<void> {
  const absolute = resolve(path);
  let found;
  try {
    found = await stat(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new UsageError(`The workspace ${absolute} does not exist. Create the folder first, or pass an existing one with --workspace.`);
    }
    throw new UsageError(`Cannot open the workspace ${absolute}: ${errorMessage(error)}`);
  }
  if (!found.isDirectory()) throw new UsageError(`The workspace ${absolute} is a file, not a folder. Pass the folder to work in with --workspace.`);
  // A repository's committed `app -> ..` took `--workspace app` out of the clone: every file there read without a
  // question, the journals written there (an outside attack). A folder named below the current one stays below it.
  const out = await linkOutOf(process.cwd(), path);
  if (out !== undefined) {
    throw new UsageError(
      `The workspace ${path} leads through a link out of the current folder (${out.link} is a link to ${out.target}), so a run would read and ` +
        `change files outside it: a repository can commit such a link. Nothing was done; if ${absolute} is the folder you mean, name the one ` +
        `it leads to (${await realpath(absolute).catch(() => absolute)}).`,
    );
  }
}

/**
 * The journal directory of a workspace, `.task-planner/runs` in it. Rejects with a `UsageError` when `.task-planner` or
 * `runs` is there as a link or as anything but a folder: journals and checkpoints (copies of files as they were before a
 * run) would be written and read wherever a repository's link points, outside the workspace.
 */
export function runsDirectory(workspace: string): string {
  const root = resolve(workspace);
  for (const inside of [['.task-planner'], ['.task-planner', 'runs']]) {
    const path = join(root, ...inside);
    const found = lstatSync(path, { throwIfNoEntry: false });
    if (found === undefined || (found.isDirectory() && !found.isSymbolicLink())) continue;
    const what = found.isSymbolicLink() ? `a link (to ${readlinkSync(path)})` : 'not a folder';
    throw new UsageError(
      `${path} is ${what}: Task Planner keeps its run journals and checkpoints only in a real folder inside the workspace, never through a link ` +
        '(a repository could send them, with copies of your files, elsewhere). Nothing was done; remove it, and Task Planner makes the folder.',
    );
  }
  return join(root, '.task-planner', 'runs');
}

/** Why a journal is no run to resume or trace: what `runs` and `trace` say of it. */
export const noRunStart = 'its journal holds no start of a run (no plan): it was not written by Task Planner, or its first line was lost';

/**
 * Takes the lock of run `runId` of `workspace` for this process (`lockRun`), and for a repair (`<first>-replan-<n>`) the
 * lock of the first run too: a repair keeps the first run's changes, and undoing the first run while its repair was
 * resumed in another process (or resuming the repair while the first run was undone) went on from files no longer there.
 * A run that does not exist is bad input; one another process holds rejects with a `RunInUseError`; a lock that cannot
 * be taken otherwise rejects with why.
 */
export async function lockListedRun(store: RunStore, runId: string, workspace: string): Promise<void> {
  await requireListedRun(store, runId, workspace);
  const first = firstRunId(runId);
  if (first !== runId) await lockRun(runsDirectory(workspace), first);
  await lockRun(runsDirectory(workspace), runId);
}

/** Rejects with a `UsageError` saying how to list the runs when `store` (the runs of `workspace`) has no run `runId`. */
export async function requireListedRun(store: RunStore, runId: string, workspace: string): Promise<void> {
  if (!(await store.list()).some((run) => run.runId === runId)) {
    throw new UsageError(`No run "${runId}" in ${runsDirectory(workspace)}. List the runs with: task-planner runs --workspace ${shellWord(workspace)}`);
  }
}

/**
 * The journal of run `runId` of `workspace`, read after taking the run's lock for this process (`lockRun`), so no
 * other process resumes or undoes it meanwhile. A run that does not exist is bad input; one another process holds
 * rejects with a `RunInUseError` naming that process; a damaged journal rejects as `RunStore.load` does, the lock taken.
 */
export async function loadLockedRun(store: RunStore, runId: string, workspace: string): Promise<LoadedJournal> {
  await lockListedRun(store, runId, workspace);
  // Read under the lock: what another process wrote before it let go is part of the run now.
  return loadListedJournal(store, runId);
}

/** The journal of run `runId`, listed a moment ago (`lockListedRun`); one deleted since is bad input. */
export async function loadListedJournal(store: RunStore, runId: string): Promise<LoadedJournal> {
  const journal = await store.load(runId);
  if (journal === undefined) throw new UsageError(`Run "${runId}" was deleted while it was being opened.`);
  return journal;
}
