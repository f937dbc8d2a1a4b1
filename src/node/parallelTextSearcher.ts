import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { TextNarrowing, TextQuery, TextSearcher } from '../core/workspacePorts';
import { maxSearchFileBytes } from '../core/tools/searchTextTool';
import { compileTextQuery } from '../core/tools/textQueryMatcher';
import { kernelKnowsOpenFiles } from './nodeDirectoryFs';

/** One batch of files for a reader thread: whole directories (or slices of one), `names` in listing order. */
export interface ReadBatch {
  id: number;
  /** The workspace root with every link resolved. */
  realRoot: string;
  query: TextQuery;
  /** Larger files are left unseen (`search_text` skips them). */
  maxBytes: number;
  /** `[directory relative to the root ('' for the root), names of files in it]`. */
  directories: [string, string[]][];
}

/** What a thread found in one batch: indexes into its files, counted across its directories in order. */
export interface Found {
  /** Files read whole, not binary. */
  seen: number[];
  /** Those of `seen` holding a match. */
  matched: number[];
}

/** A reader thread's answer to the batch `id`. */
export type BatchAnswer = ({ id: number } & Found) | { id: number; error: string };

/** Options of `createParallelTextSearcher`. */
export interface ParallelSearchOptions {
  /** Reader threads (default: the machine's cores, 2 to 4). */
  threads?: number;
  /** Fewer listed files than this are left to the caller's own reader (default 512): a thread costs more than it saves. */
  minFiles?: number;
  /** Files per batch handed to a thread (default 256). */
  batchFiles?: number;
  /** The reader thread's script (default: `textSearchWorker` beside this module, bundled or not). */
  workerScript?: string;
}

/**
 * A `TextSearcher` for the folder `root` that reads the listed files on reader threads, so
 * a search over a large workspace uses every core instead of only the event loop's. It
 * reads only through a directory descriptor the kernel confirms is the listed directory
 * inside the real root, and only regular, singly linked files that are not links; what it
 * cannot read so stays unseen, and the caller's confined reader takes it. It matches with
 * `compileTextQuery`, as `search_text` does. `undefined` where the kernel has no
 * `/proc/self/fd` (the check needs it). Threads start on first use, run while a search
 * needs them and end after a few idle seconds.
 */
export function createParallelTextSearcher(root: string, options: ParallelSearchOptions = {}): TextSearcher | undefined {
  if (!kernelKnowsOpenFiles) return undefined;
  const minFiles = options.minFiles ?? 512;
  const batchFiles = options.batchFiles ?? 256;
  const pool =
    options.threads === undefined && options.workerScript === undefined
      ? sharedPool()
      : new ReaderPool(options.workerScript ?? defaultWorkerScript(), options.threads ?? defaultThreads());
  return {
    async narrow(query, listed, signal) {
      signal?.throwIfAborted();
      // An invalid pattern is the tool's to report; nothing to narrow.
      try {
        compileTextQuery(query);
      } catch {
        return undefined;
      }
      const files = await listed;
      signal?.throwIfAborted();
      if (files.length < minFiles) return undefined;
      let realRoot: string;
      try {
        realRoot = fs.realpathSync(root);
      } catch {
        return undefined;
      }
      const batches = batchesOf(files, batchFiles);
      const answers = await pool
        .readAll(
          batches.map(({ directories }) => ({ realRoot, query, maxBytes: maxSearchFileBytes, directories })),
          signal,
        )
        .catch((error: unknown) => {
          // A failed thread leaves the whole answer to the caller's reader.
          if (signal?.aborted) throw error;
          return undefined;
        });
      if (answers === undefined) return undefined;
      const seen = new Set<string>();
      const matched = new Set<string>();
      answers.forEach((answer, batch) => {
        const first = (batches[batch] as { first: number }).first;
        for (const index of answer.seen) seen.add(files[first + index] as string);
        for (const index of answer.matched) matched.add(files[first + index] as string);
      });
      return { seen, matched } satisfies TextNarrowing;
    },
  };
}

/**
 * `files` (workspace-relative, `/`-separated) cut into batches of `size` files in listing
 * order, each batch's files grouped by directory; `first`: the index of its first file.
 */
export function batchesOf(files: readonly string[], size: number): { directories: [string, string[]][]; first: number }[] {
  const batches: { directories: [string, string[]][]; first: number; count: number }[] = [];
  files.forEach((file, index) => {
    const slash = file.lastIndexOf('/');
    const directory = slash < 0 ? '' : file.slice(0, slash);
    let batch = batches.at(-1);
    if (batch === undefined || batch.count >= size) {
      batch = { directories: [], first: index, count: 0 };
      batches.push(batch);
    }
    const last = batch.directories.at(-1);
    if (last !== undefined && last[0] === directory) last[1].push(file.slice(slash + 1));
    else batch.directories.push([directory, [file.slice(slash + 1)]]);
    batch.count++;
  });
  return batches.map(({ directories, first }) => ({ directories, first }));
}

function defaultThreads(): number {
  return Math.min(4, Math.max(2, os.availableParallelism()));
}

/** The worker script beside this module: `textSearchWorker.js` in a bundle, the TypeScript source when run from source. */
function defaultWorkerScript(): string {
  const bundled = path.join(__dirname, 'textSearchWorker.js');
  return fs.existsSync(bundled) ? bundled : path.join(__dirname, 'textSearchWorker.ts');
}

let shared: ReaderPool | undefined;

function sharedPool(): ReaderPool {
  return (shared ??= new ReaderPool(defaultWorkerScript(), defaultThreads()));
}

/** Threads end after this long without work, in milliseconds. */
const idleMs = 5_000;

interface Waiting {
  batch: ReadBatch;
  job: Job;
  index: number;
}

interface Job {
  answers: Found[];
  left: number;
  settle(outcome: Found[] | Error): void;
}

/**
 * Reader threads and the batches waiting for them, first come first served. A thread that
 * fails fails the search whose batch it held; one that fails before its first answer (its
 * script missing or broken) fails every search from then on. Threads keep the process
 * alive only while they hold a batch.
 */
class ReaderPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Waiting>();
  private queue: Waiting[] = [];
  private started = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private nextId = 0;
  private unusable: Error | undefined;

  constructor(
    private readonly script: string,
    private readonly size: number,
  ) {}

  /** Reads every batch on the threads; the answers in the batches' order. Rejects when a thread fails or `signal` aborts. */
  readAll(batches: Omit<ReadBatch, 'id'>[], signal: AbortSignal | undefined): Promise<Found[]> {
    return new Promise((resolve, reject) => {
      if (this.unusable !== undefined) return reject(this.unusable);
      let settled = false;
      const onAbort = (): void => job.settle(signal?.reason instanceof Error ? signal.reason : new Error('The search was cancelled'));
      const job: Job = {
        answers: [],
        left: batches.length,
        settle: (outcome) => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          // Its batches not yet started are dropped; those running finish unheard.
          this.queue = this.queue.filter((waiting) => waiting.job !== job);
          if (outcome instanceof Error) reject(outcome);
          else resolve(outcome);
        },
      };
      if (signal?.aborted) return onAbort();
      if (batches.length === 0) return job.settle([]);
      signal?.addEventListener('abort', onAbort, { once: true });
      batches.forEach((batch, index) => this.queue.push({ batch: { ...batch, id: this.nextId++ }, job, index }));
      this.dispatch();
    });
  }

  private dispatch(): void {
    clearTimeout(this.idleTimer);
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.started < this.size ? this.start() : undefined);
      if (worker === undefined) return;
      const waiting = this.queue.shift() as Waiting;
      this.busy.set(worker, waiting);
      worker.ref();
      worker.postMessage(waiting.batch);
    }
    if (this.busy.size === 0 && this.idle.length > 0) {
      this.idleTimer = setTimeout(() => this.stopIdle(), idleMs);
      this.idleTimer.unref();
    }
  }

  private start(): Worker {
    // From source, the thread needs the same TypeScript loader as the process.
    const worker = new Worker(this.script, { execArgv: this.script.endsWith('.ts') ? ['--require', 'tsx/cjs'] : [] });
    this.started++;
    let answered = false;
    let failed = false;
    worker.on('message', (answer: BatchAnswer) => {
      const waiting = this.busy.get(worker);
      if (waiting === undefined || answer.id !== waiting.batch.id) return;
      answered = true;
      this.busy.delete(worker);
      worker.unref();
      this.idle.push(worker);
      const { job, index } = waiting;
      if ('error' in answer) job.settle(new Error(answer.error));
      else {
        job.answers[index] = answer;
        if (--job.left === 0) job.settle(job.answers);
      }
      this.dispatch();
    });
    const fail = (error: Error): void => {
      if (failed) return;
      failed = true;
      this.started--;
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      this.busy.get(worker)?.job.settle(error);
      this.busy.delete(worker);
      void worker.terminate();
      if (!answered) {
        this.unusable = new Error(`The search threads cannot start: ${error.message}`);
        for (const { job } of this.queue) job.settle(this.unusable);
      }
      this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`A search thread stopped (exit code ${code})`)));
    return worker;
  }

  private stopIdle(): void {
    for (const worker of this.idle.splice(0)) {
      worker.removeAllListeners('exit');
      this.started--;
      void worker.terminate();
    }
  }
}
