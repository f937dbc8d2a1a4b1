/**
 * Serializes work per key: `run` starts `work` only once every earlier `run` of the same key
 * has ended, in call order. Keys without waiting work are forgotten, so the map holds only
 * keys in use. Waiting honours `signal`: an abort rejects with its reason and never starts
 * `work` (later callers still wait their turn behind the earlier ones).
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    try {
      await untilAborted(previous, signal);
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with work running or waiting (for tests and diagnostics). */
  get size(): number {
    return this.tails.size;
  }
}

function untilAborted(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return wait;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal aborts once, and the listener is removed when the wait ends anyway.
    signal.addEventListener('abort', onAbort, { once: true });
    void wait.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/**
 * The one lock of file changes in this process, keyed by the place a change leads to once
 * links are followed (`changeKey`: the same under nested roots and in any letter case): a
 * file's read → propose → approve → write is never interleaved with another change of the
 * same file, by any step of any run in any folder.
 */
export const fileLocks = new KeyedLock();
