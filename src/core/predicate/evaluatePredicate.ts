import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten';
import { capText, textCaps } from '../text/capText';
import { valueText } from '../text/valueText';
import { errorMessage } from '../../shared/errorMessage';

/**
 * What a `verification` or `when` predicate produced (docs/architecture.md §4); a failure is
 * `stated` when the predicate returned its diagnosis itself (a string), not only false.
 */
export type PredicateOutcome = { kind: 'pass' } | { kind: 'fail'; diagnosis: string; stated: boolean } | { kind: 'error'; message: string };

/** The values a predicate can read; each is copied into the sandbox as JSON. */
export interface PredicateBindings {
  input?: unknown;
  result?: unknown;
  depends?: Record<string, unknown>;
  /** The step's check outcomes in its order (`{ kind, passed, detail }`), for `verification`. */
  checks?: readonly unknown[];
}

/** Limits of one evaluation: wall time in milliseconds, heap in bytes. */
export interface PredicateOptions {
  /** Default 1000 ms. */
  timeoutMs?: number;
  /** Default 32 MiB; the WebAssembly memory of the sandbox can never grow past it (plus the engine's own 16 MiB). */
  memoryLimitBytes?: number;
}

/**
 * Evaluates a predicate as `evaluatePredicate` does. A host gives one that holds the time limit even where
 * the engine cannot (src/node/predicateThreads.ts: QuickJS checks it only between thousands of operations,
 * and one native operation, `s.indexOf(t)` on long strings, can run for hours on the caller's thread).
 */
export type PredicateEvaluator = (expr: string, bindings: PredicateBindings, opts?: PredicateOptions) => Promise<PredicateOutcome>;

/** The outcome of a predicate stopped at its time limit, in the words of every other timeout. */
export function predicateTimedOut(expr: string, timeoutMs: number): PredicateOutcome {
  return { kind: 'error', message: capText(timedOutMessage(expr, timeoutMs), textCaps.message) };
}

function timedOutMessage(expr: string, timeoutMs: number): string {
  return `Verification \`${expr}\` timed out after ${timeoutMs} ms; make the predicate cheaper or remove the loop.`;
}

/** The time limit of a predicate when its options give none. */
export const defaultPredicateTimeoutMs = 1000;
const defaultMemoryLimitBytes = 32 * 1024 * 1024;
const maxStackBytes = 256 * 1024;
const previewLength = 200;
const wasmPageBytes = 64 * 1024;
/** What the QuickJS module itself needs before any predicate runs (its `INITIAL_MEMORY`). */
const engineBytes = 16 * 1024 * 1024;

/** The memory of the sandbox's module, as quickjs-emscripten types it (the same under the DOM and Node libraries). */
type SandboxMemory = NonNullable<NonNullable<NonNullable<Parameters<typeof newVariant>[1]>['emscriptenModule']>['wasmMemory']>;
/** The host's WebAssembly API, which this project's TypeScript libraries do not describe. */
const webAssembly = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => SandboxMemory } }).WebAssembly;

/** Loaded modules by memory limit (in practice one); an entry is dropped when its memory must go. */
const modules = new Map<number, Promise<QuickJSWASMModule>>();
let loads = 0;

/**
 * How many sandbox instances (QuickJS WebAssembly modules) this process has loaded: one on first use, then
 * one more on the evaluation after each one that had to drop its instance (out of memory, the engine stopped
 * halfway). An ordinary pass, fail, throw or timeout keeps the instance. For tests and diagnostics.
 */
export function sandboxLoads(): number {
  return loads;
}

/**
 * Loads a QuickJS WebAssembly module for `memoryLimitBytes`, once, on first use. QuickJS's
 * own limit counts allocations, not their size (the build has no `malloc_usable_size`), so
 * `new Array(1e6)` in a loop went past it and grew the host by gigabytes: the module gets a
 * `WebAssembly.Memory` whose maximum is the limit (plus the engine's own memory), so an
 * allocation past it fails inside the sandbox as "out of memory". The release-sync variant
 * loads `emscripten-module.wasm` from the directory of the JavaScript file that contains
 * it: `node_modules` when run from source, `dist/` in the bundles (esbuild copies it there).
 */
function loadQuickJs(memoryLimitBytes: number): Promise<QuickJSWASMModule> {
  let loading = modules.get(memoryLimitBytes);
  if (!loading) {
    loads++;
    // quickjs-emscripten types the memory as WebAssembly.Memory, which the ES2023 library does not declare.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
    const wasmMemory = new webAssembly.Memory({ initial: engineBytes / wasmPageBytes, maximum: Math.ceil((engineBytes + memoryLimitBytes) / wasmPageBytes) });
    // Emscripten prints an abort ("Aborted(Assertion failed…)") on the host's stderr before it
    // throws it; the throw reaches the evaluation, which reports it, so the print is dropped.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
    const emscriptenModule = { wasmMemory, print: ignoreOutput, printErr: ignoreOutput };
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
    loading = newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory, emscriptenModule })).catch((error: unknown) => {
      modules.delete(memoryLimitBytes);
      throw new Error(
        `Could not load the QuickJS sandbox used for predicates: ${errorMessage(error)}. Reinstall dependencies or rebuild (the .wasm file must sit next to the bundle).`,
      );
    });
    modules.set(memoryLimitBytes, loading);
  }
  return loading;
}

function ignoreOutput(): void {
  // Nothing the engine prints reaches the user: what matters comes back as an exception.
}

/**
 * Evaluates a JavaScript expression in a fresh QuickJS sandbox (WebAssembly; no access
 * to the host) with the globals `input`, `result`, `depends` and `checks`. `true` passes (the
 * boolean itself: an object whose copy reads true, `new Boolean(true)`, fails as unexpected); `false`
 * fails with a diagnosis quoting the predicate and a preview of the result; a string
 * fails with that string as the diagnosis; any other value fails as "unexpected value".
 * A thrown exception, a syntax error, running past `timeoutMs`, past the memory limit or
 * past the stack (also the host's, which QuickJS's own check does not always see first:
 * `JSON.parse` of 100 000 nested brackets), or the engine aborting, is an `error`; the
 * engine prints nothing on the host's stderr (an abort comes back as an exception). The diagnosis and the message are capped at
 * `textCaps.message` characters (`capText`). Never rejects. The time limit holds only between the engine's
 * operations: a host runs this where it can end it (`PredicateEvaluator`).
 */
export async function evaluatePredicate(expr: string, bindings: PredicateBindings, opts: PredicateOptions = {}): Promise<PredicateOutcome> {
  const outcome = await evaluateUncapped(expr, bindings, opts);
  if (outcome.kind === 'fail') return { ...outcome, diagnosis: capText(outcome.diagnosis, textCaps.message) };
  if (outcome.kind === 'error') return { kind: 'error', message: capText(outcome.message, textCaps.message) };
  return outcome;
}

async function evaluateUncapped(expr: string, bindings: PredicateBindings, opts: PredicateOptions): Promise<PredicateOutcome> {
  const memoryLimitBytes = opts.memoryLimitBytes ?? defaultMemoryLimitBytes;
  let module: QuickJSWASMModule;
  try {
    module = await loadQuickJs(memoryLimitBytes);
  } catch (error) {
    return { kind: 'error', message: errorMessage(error) };
  }
  const timeoutMs = opts.timeoutMs ?? defaultPredicateTimeoutMs;
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(memoryLimitBytes);
  runtime.setMaxStackSize(maxStackBytes);
  // A monotonic deadline read only inside the sandbox: scheduling never depends on it.
  const deadline = performance.now() + timeoutMs;
  let timedOut = false;
  runtime.setInterruptHandler(() => {
    // Stryker disable next-line EqualityOperator: the clock never lands on the deadline exactly often enough to tell > from >=.
    if (performance.now() > deadline) timedOut = true;
    return timedOut;
  });
  const vm = runtime.newContext();
  // Out of memory, or the engine stopped halfway (host stack overflow, abort): the instance goes.
  let dropModule = false;
  try {
    for (const name of ['input', 'result', 'depends', 'checks'] as const) {
      const injected = inject(vm, name, bindings[name]);
      if (injected !== undefined) return { kind: 'error', message: injected };
    }
    const evaluated = vm.evalCode(expr, 'predicate.js');
    if (evaluated.error) {
      const thrown: unknown = vm.dump(evaluated.error);
      // `dump` of a promise (`throw Promise.resolve(1)`) disposes it itself.
      if (evaluated.error.alive) evaluated.error.dispose();
      dropModule = !timedOut && isOutOfMemory(thrown);
      return { kind: 'error', message: describeThrown(expr, thrown, timedOut, timeoutMs, memoryLimitBytes) };
    }
    const type = vm.typeof(evaluated.value);
    if (type === 'object' && isPromise(vm, evaluated.value)) {
      evaluated.value.dispose();
      return {
        kind: 'error',
        message: `Verification \`${expr}\` could not be evaluated: it returned a promise, and a predicate's value is used at once. Return true, false or a diagnosis string, without async, await or Promise.`,
      };
    }
    const value: unknown = type === 'function' || type === 'symbol' ? `[${type}]` : vm.dump(evaluated.value);
    evaluated.value.dispose();
    // Only the boolean itself: an object is copied out through JSON, where `toJSON` or `new Boolean(true)` reads as true.
    if (type === 'boolean' && value === true) return { kind: 'pass' };
    if (type === 'boolean' && value === false) {
      return { kind: 'fail', diagnosis: `Verification \`${expr}\` was false for result ${preview(bindings.result)}`, stated: false };
    }
    // Stryker disable next-line ConditionalExpression: a value of type string dumps to a string; the second test only narrows the type.
    if (type === 'string' && typeof value === 'string') return { kind: 'fail', diagnosis: value, stated: true };
    return {
      kind: 'fail',
      diagnosis: `Verification \`${expr}\` returned an unexpected value ${preview(value)} (expected true, false or a diagnosis string) for result ${preview(bindings.result)}`,
      stated: false,
    };
  } catch (error) {
    dropModule = true;
    return { kind: 'error', message: describeHostError(expr, error) };
  } finally {
    release(vm, runtime, dropModule ? memoryLimitBytes : undefined);
  }
}

/**
 * Frees a sandbox. After some stack overflows QuickJS aborts while freeing its runtime,
 * which poisons the whole WebAssembly instance; the instance is then dropped so the next
 * evaluation loads a fresh one. After running out of memory, or after the engine stopped
 * halfway (an exception out of the engine itself), the instance is dropped too
 * (`dropLimit`), so its grown memory or its half-unwound state goes with it.
 */
function release(vm: QuickJSContext, runtime: { dispose(): void }, dropLimit: number | undefined): void {
  try {
    vm.dispose();
    runtime.dispose();
    if (dropLimit !== undefined) modules.delete(dropLimit);
  } catch {
    modules.clear();
  }
}

/** Whether `handle` is a promise (of any state); what `getPromiseState` gave for it is disposed, `handle` is not. */
function isPromise(vm: QuickJSContext, handle: QuickJSHandle): boolean {
  const state = vm.getPromiseState(handle);
  if (state.type === 'fulfilled') {
    if (state.notAPromise === true) return false;
    state.value.dispose();
  } else if (state.type === 'rejected') {
    state.error.dispose();
  }
  return true;
}

/** Defines a global from a host value through JSON; returns an error message on failure. */
function inject(vm: QuickJSContext, name: string, value: unknown): string | undefined {
  // Stryker disable next-line ConditionalExpression,BlockStatement: JSON.stringify(undefined) is undefined, which the check below binds the same way.
  if (value === undefined) {
    vm.setProp(vm.global, name, vm.undefined);
    return undefined;
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    return `The binding \`${name}\` cannot be passed to the predicate because it is not JSON-serializable: ${errorMessage(error)}`;
  }
  if (json === undefined) {
    vm.setProp(vm.global, name, vm.undefined);
    return undefined;
  }
  const text = vm.newString(json);
  const jsonObject = vm.getProp(vm.global, 'JSON');
  const parse = vm.getProp(jsonObject, 'parse');
  const parsed = vm.callFunction(parse, jsonObject, text);
  text.dispose();
  parse.dispose();
  jsonObject.dispose();
  if (parsed.error) {
    parsed.error.dispose();
    return `The binding \`${name}\` is too large for the predicate sandbox's memory limit.`;
  }
  const handle: QuickJSHandle = parsed.value;
  vm.setProp(vm.global, name, handle);
  handle.dispose();
  return undefined;
}

function isOutOfMemory(thrown: unknown): boolean {
  return thrown === null || /out of memory/i.test(thrownText(thrown));
}

function describeThrown(expr: string, thrown: unknown, timedOut: boolean, timeoutMs: number, memoryLimitBytes: number): string {
  if (timedOut) return timedOutMessage(expr, timeoutMs);
  if (isOutOfMemory(thrown)) {
    return `Verification \`${expr}\` ran out of memory: it went past the sandbox's memory limit of ${mebibytes(memoryLimitBytes)} MiB; predicates must not build large values.`;
  }
  const text = thrownText(thrown);
  if (/stack overflow/i.test(text)) return tooDeep(expr);
  return `Verification \`${expr}\` threw ${text}`;
}

/** What an exception out of the engine itself (not one the predicate threw inside it) means. */
function describeHostError(expr: string, error: unknown): string {
  // The host's "Maximum call stack size exceeded": the engine recursed deeper than the host's stack before its own check saw it.
  if (error instanceof RangeError) return tooDeep(expr);
  return `Verification \`${expr}\` could not be evaluated: ${errorMessage(error)}`;
}

function tooDeep(expr: string): string {
  return `Verification \`${expr}\` failed because it went too deep: it overflowed the sandbox's stack (unbounded recursion, or data nested too deeply?).`;
}

function thrownText(thrown: unknown): string {
  if (thrown !== null && typeof thrown === 'object') {
    const { name, message } = thrown as { name?: unknown; message?: unknown };
    if (typeof message === 'string') return `${typeof name === 'string' ? name : 'Error'}: ${message}`;
  }
  return preview(thrown);
}

/** A one-line preview of a value, at most `previewLength` characters of JSON. */
function preview(value: unknown): string {
  // A string is shown quoted, as JSON, so a preview tells the string "1" from the number 1.
  const text = typeof value === 'string' ? JSON.stringify(value) : valueText(value);
  return text.length > previewLength ? `${text.slice(0, previewLength)}… (${text.length} chars)` : text;
}

function mebibytes(bytes: number): string {
  return String(Math.round((bytes / 2 ** 20) * 10) / 10);
}
