import { newQuickJSWASMModuleFromVariant, RELEASE_SYNC } from 'quickjs-emscripten';
import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten';

/** What a `verification` or `when` predicate produced (DESIGN §4). */
export type PredicateOutcome = { kind: 'pass' } | { kind: 'fail'; diagnosis: string } | { kind: 'error'; message: string };

/** The values a predicate can read; each is copied into the sandbox as JSON. */
export interface PredicateBindings {
  input?: unknown;
  result?: unknown;
  depends?: Record<string, unknown>;
}

/** Limits of one evaluation: wall time in milliseconds, heap in bytes. */
export interface PredicateOptions {
  /** Default 1000 ms. */
  timeoutMs?: number;
  /** Default 32 MiB. */
  memoryLimitBytes?: number;
}

const defaultTimeoutMs = 1000;
const defaultMemoryLimitBytes = 32 * 1024 * 1024;
const maxStackBytes = 256 * 1024;
const previewLength = 200;

let quickJs: Promise<QuickJSWASMModule> | undefined;

/**
 * Loads the QuickJS WebAssembly module once, on first use. The release-sync variant
 * loads `emscripten-module.wasm` from the directory of the JavaScript file that contains
 * it: `node_modules` when run from source, `dist/` in the bundles (esbuild copies it there).
 */
function loadQuickJs(): Promise<QuickJSWASMModule> {
  quickJs ??= newQuickJSWASMModuleFromVariant(RELEASE_SYNC).catch((error: unknown) => {
    quickJs = undefined;
    throw new Error(`Could not load the QuickJS sandbox used for predicates: ${messageOf(error)}. Reinstall dependencies or rebuild (the .wasm file must sit next to the bundle).`);
  });
  return quickJs;
}

/**
 * Evaluates a JavaScript expression in a fresh QuickJS sandbox (WebAssembly; no access
 * to the host) with the globals `input`, `result` and `depends`. `true` passes; `false`
 * fails with a diagnosis quoting the predicate and a preview of the result; a string
 * fails with that string as the diagnosis; any other value fails as "unexpected value".
 * A thrown exception, a syntax error, running past `timeoutMs` or past the memory limit
 * is an `error`. Never rejects.
 */
export async function evaluatePredicate(
  expr: string,
  bindings: PredicateBindings,
  opts: PredicateOptions = {},
): Promise<PredicateOutcome> {
  let module: QuickJSWASMModule;
  try {
    module = await loadQuickJs();
  } catch (error) {
    return { kind: 'error', message: messageOf(error) };
  }
  const timeoutMs = opts.timeoutMs ?? defaultTimeoutMs;
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(opts.memoryLimitBytes ?? defaultMemoryLimitBytes);
  runtime.setMaxStackSize(maxStackBytes);
  // A monotonic deadline read only inside the sandbox: scheduling never depends on it.
  const deadline = performance.now() + timeoutMs;
  let timedOut = false;
  runtime.setInterruptHandler(() => {
    if (performance.now() > deadline) timedOut = true;
    return timedOut;
  });
  const vm = runtime.newContext();
  try {
    for (const name of ['input', 'result', 'depends'] as const) {
      const injected = inject(vm, name, bindings[name]);
      if (injected !== undefined) return { kind: 'error', message: injected };
    }
    const evaluated = vm.evalCode(expr, 'predicate.js');
    if (evaluated.error) {
      const thrown: unknown = vm.dump(evaluated.error);
      evaluated.error.dispose();
      return { kind: 'error', message: describeThrown(expr, thrown, timedOut, timeoutMs) };
    }
    const type = vm.typeof(evaluated.value);
    const value: unknown = type === 'function' || type === 'symbol' ? `[${type}]` : vm.dump(evaluated.value);
    evaluated.value.dispose();
    if (value === true) return { kind: 'pass' };
    if (value === false) {
      return { kind: 'fail', diagnosis: `Verification \`${expr}\` was false for result ${preview(bindings.result)}` };
    }
    if (typeof value === 'string') return { kind: 'fail', diagnosis: value };
    return {
      kind: 'fail',
      diagnosis: `Verification \`${expr}\` returned an unexpected value ${preview(value)} (expected true, false or a diagnosis string) for result ${preview(bindings.result)}`,
    };
  } catch (error) {
    return { kind: 'error', message: `Verification \`${expr}\` could not be evaluated: ${messageOf(error)}` };
  } finally {
    release(vm, runtime);
  }
}

/**
 * Frees a sandbox. After some stack overflows QuickJS aborts while freeing its runtime,
 * which poisons the whole WebAssembly instance; the instance is then dropped so the next
 * evaluation loads a fresh one.
 */
function release(vm: QuickJSContext, runtime: { dispose(): void }): void {
  try {
    vm.dispose();
    runtime.dispose();
  } catch {
    quickJs = undefined;
  }
}

/** Defines a global from a host value through JSON; returns an error message on failure. */
function inject(vm: QuickJSContext, name: string, value: unknown): string | undefined {
  if (value === undefined) {
    vm.setProp(vm.global, name, vm.undefined);
    return undefined;
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    return `The binding \`${name}\` cannot be passed to the predicate because it is not JSON-serializable: ${messageOf(error)}`;
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

function describeThrown(expr: string, thrown: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `Verification \`${expr}\` timed out after ${timeoutMs} ms; make the predicate cheaper or remove the loop.`;
  const text = thrownText(thrown);
  if (thrown === null || /out of memory/i.test(text)) {
    return `Verification \`${expr}\` ran out of memory in the sandbox; predicates must not build large values.`;
  }
  if (/stack overflow/i.test(text)) return `Verification \`${expr}\` overflowed the stack (unbounded recursion?).`;
  return `Verification \`${expr}\` threw ${text}`;
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
  let text: string;
  try {
    text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > previewLength ? `${text.slice(0, previewLength)}… (${text.length} chars)` : text;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
