import assert from 'node:assert/strict';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { mutationGroups } from '../mutation/mutationGroups.mjs';

const root = join(__dirname, '..', '..');

/** Repository-relative paths (forward slashes) matched by globs, `!` globs leaving files out. */
function expand(globs: readonly string[]): string[] {
  return globSync([...globs], { cwd: root });
}

describe('architecture: every core file is mutation-tested', () => {
  it('puts every source file of src/core in a mutation group (test/mutation/mutationGroups.mjs)', () => {
    const mutated = new Set(mutationGroups.flatMap((group) => expand(group.mutate)));
    const core = expand(['src/core/**/*.ts']);
    assert.ok(core.length > 100, `expected the core's sources under src/core, found ${core.length}`);
    assert.deepEqual(
      core.filter((path) => !mutated.has(path)).sort(),
      [],
      'add these files to the `mutate` globs of the group whose tests cover them (a type-only file may be listed: it has no mutants), then run that group',
    );
  });

  it('names only files that exist in the groups it mutates', () => {
    const stale = mutationGroups.flatMap((group) =>
      group.mutate.filter((glob) => !glob.startsWith('!') && expand([glob]).length === 0).map((glob) => `${group.name}: ${glob}`));
    assert.deepEqual(stale, [], 'these `mutate` entries match no file: a file was moved or renamed; update the group');
  });
});
