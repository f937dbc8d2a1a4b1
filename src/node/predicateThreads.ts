import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  defaultPredicateTimeoutMs,
  evaluatePredicate,
  predicateTimedOut,
  type PredicateBindings,
  type PredicateEvaluator,
  type PredicateOptions,
  type PredicateOutcome,
} from '../core/predicate/evaluatePredicate';
import { errorMessage } from '../shared/errorMessage';

/** What a predicate's thread says: it is ready (its sandbox loaded), or the outcome of request `id`. */
export type PredicateAnswer = { ready: true } | { id: number; outcome: PredicateOutcome };

/** How long past its time limit a predicate's thread may take to answer before it is ended. */
const graceMs = 1_000;
/** How long a new thread may take to load its sandbox. */
const startMs = 30_000;
/** Threads kept for the next predicates. */
const keptIdle = 2;

interface Thread {
  worker: Worker;
  ready: Promise<boolean>;
  /** Ended (its predicate past the limit, or it failed): never used again. */
  ended: boolean;
}

/**
 * Evaluates each predicate on a thread of its own (`worker_threads`) and ends the thread when the predicate runs
 * `graceMs` past its time limit. QuickJS checks its time limit only every 10 000 operations or so, and some of its
 * native operations take time quadratic in their strings (`'a'.repeat(1e6).indexOf('a'.repeat(5e5) + 'b')`): on the
 * caller's thread such a predicate held the extension host or the command line for hours past a 1 s limit. The
 * outcome is then the time limit's error, as when the sandbox stops the predicate itself. Without the thread script
 * (a bundle built without it), predicates run on the caller's thread, as before.
 */
export function createPredicateThreads(options: { script?: string } = {}): PredicateEvaluator {
  const script = options.script ?? defaultWorkerScript();
  if (script === undefined) return evaluatePredicate;
  const idle: Thread[] = [];
  let nextId = 0;
  const start = (): Thread => {
    // From source, the thread needs the same TypeScript loader as the process.
    const worker = new Worker(script, { execArgv: script.endsWith('.ts') ? ['--require', 'tsx/cjs'] : [] });
    const thread: Thread = { worker, ready: Promise.resolve(false), ended: false };
    thread.ready = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), startMs);
      worker.once('message', () => {
        clearTimeout(timer);
        resolve(true);
      });
      // A thread that failed (its script broken, out of memory) exits next; what it threw is not the predicate's.
      worker.on('error', () => resolve(false));
      worker.once('exit', () => {
        thread.ended = true;
        resolve(false);
      });
    });
    return thread;
  };
  return async (expr: string, given: PredicateBindings, opts: PredicateOptions = {}): Promise<PredicateOutcome> => {
    const bindings = jsonCopies(given);
    // A binding JSON cannot carry: the sandbox refuses it, naming it, before the predicate runs, so that is done here.
    if (bindings === undefined) return evaluatePredicate(expr, given, opts);
    let kept = idle.pop();
    // A kept thread that ended meanwhile (it crashed) is not used.
    while (kept?.ended === true) kept = idle.pop();
    const thread = kept ?? start();
    thread.worker.ref();
    if (!(await thread.ready)) {
      thread.ended = true;
      void thread.worker.terminate();
      return { kind: 'error', message: `Verification \`${expr}\` could not be evaluated: the predicate's thread did not start.` };
    }
    const id = nextId++;
    const timeoutMs = opts.timeoutMs ?? defaultPredicateTimeoutMs;
    const outcome = await new Promise<PredicateOutcome>((resolve) => {
      const finish = (value: PredicateOutcome): void => {
        clearTimeout(timer);
        thread.worker.off('message', onMessage);
        thread.worker.off('exit', onExit);
        resolve(value);
      };
      const onMessage = (answer: PredicateAnswer): void => {
        if ('id' in answer && answer.id === id) finish(answer.outcome);
      };
      const onExit = (): void => finish({ kind: 'error', message: `Verification \`${expr}\` could not be evaluated: the predicate's thread stopped.` });
      const timer = setTimeout(() => {
        // The sandbox did not stop it: the thread goes, and the predicate with it.
        thread.ended = true;
        void thread.worker.terminate();
        finish(predicateTimedOut(expr, timeoutMs));
      }, timeoutMs + graceMs);
      thread.worker.on('message', onMessage);
      thread.worker.on('exit', onExit);
      try {
        thread.worker.postMessage({ id, expr, bindings, opts });
      } catch (error) {
        finish({ kind: 'error', message: `Verification \`${expr}\` could not be evaluated: ${errorMessage(error)}` });
      }
    });
    release(thread);
    return outcome;
  };

  function release(thread: Thread): void {
    thread.worker.unref();
    if (thread.ended) return;
    if (idle.length < keptIdle) idle.push(thread);
    else void thread.worker.terminate();
  }
}

/**
 * The bindings as the sandbox takes them (each through JSON, `inject` in evaluatePredicate.ts), so they can go to a
 * thread; `undefined` when one cannot be copied (a cycle, a BigInt).
 */
function jsonCopies(bindings: PredicateBindings): PredicateBindings | undefined {
  const copies: Record<string, unknown> = {};
  try {
    for (const [name, value] of Object.entries(bindings)) {
      const json = value === undefined ? undefined : JSON.stringify(value);
      if (json !== undefined) copies[name] = JSON.parse(json);
    }
  } catch {
    return undefined;
  }
  return copies;
}

/** The thread script beside this module: `predicateWorker.js` in a bundle, the TypeScript source when run from source. */
function defaultWorkerScript(): string | undefined {
  const bundled = path.join(__dirname, 'predicateWorker.js');
  if (fs.existsSync(bundled)) return bundled;
  const source = path.join(__dirname, 'predicateWorker.ts');
  return fs.existsSync(source) ? source : undefined;
}

let shared: PredicateEvaluator | undefined;

/** The process's one `createPredicateThreads` (its idle threads shared by every run). */
export function sharedPredicateThreads(): PredicateEvaluator {
  return (shared ??= createPredicateThreads());
}
