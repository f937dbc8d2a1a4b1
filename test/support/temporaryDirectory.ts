import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Registers mocha hooks in the calling suite that give each of its tests (or, with `perSuite`, the suite as a
 * whole) a fresh empty directory under the OS temp folder named `<prefix>XXXXXX`, removed with its contents
 * afterwards. Read `.path` in tests and in hooks registered after this call; outside them it throws.
 */
export function temporaryDirectory(prefix: string, { perSuite = false }: { perSuite?: boolean } = {}): { readonly path: string } {
  let current: string | undefined;
  const create = (): void => {
    current = mkdtempSync(join(tmpdir(), prefix));
  };
  const remove = (): void => {
    if (current !== undefined) rmSync(current, { recursive: true, force: true });
    current = undefined;
  };
  if (perSuite) {
    before(create);
    after(remove);
  } else {
    beforeEach(create);
    afterEach(remove);
  }
  return {
    get path(): string {
      if (current === undefined) throw new Error(`the temporary directory ${prefix}… exists only while a test of its suite runs`);
      return current;
    },
  };
}
