import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mutationInputsDigest } from '../../../scripts/mutationInputs.mjs';
import { temporaryDirectory } from '../../support/temporaryDirectory';

// The promise: npm test scores a mutation group from its committed result without running Stryker only when nothing the
// run would read changed. Each case changes one thing a run reads and expects another digest.
describe('mutationInputsDigest (a mutation group is scored from its committed result only while nothing it reads changed)', () => {
  const folder = temporaryDirectory('mutation-inputs-');
  const group = { name: 'g', threshold: 90, mutate: ['src/core/a.ts'], spec: ['test/unit/core/**/*.test.ts'] };
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(folder.path, path)), { recursive: true });
    writeFileSync(join(folder.path, path), text);
  };

  beforeEach(() => {
    write('package-lock.json', '{"lockfileVersion":3}');
    write('stryker.config.mjs', 'export default {};');
    write('src/core/a.ts', "import { b } from './b';\nexport const a = (): number => b + 1;\n");
    write('src/core/b.ts', 'export const b = 1;\n');
    write('src/core/unrelated.ts', 'export const u = 1;\n');
    write('test/fakes/fakeThing.ts', 'export const fake = 1;\n');
    write('test/support/deep.ts', 'export const deep = 1;\n');
    write('test/support/helper.ts', "export * from './deep';\nexport const helper = (): Promise<unknown> => import('../fakes/fakeThing.js');\n");
    write('test/unit/core/a.test.ts', "import { a } from '../../../src/core/a';\nimport { helper } from '../../support/helper';\nvoid a; void helper;\n");
    write('test/fixtures/sample.txt', 'sample\n');
  });

  const changes: Record<string, () => void> = {
    'a mutated module': () => write('src/core/a.ts', 'export const a = (): number => 2;\n'),
    'a module the mutated one imports': () => write('src/core/b.ts', 'export const b = 2;\n'),
    'a test': () => write('test/unit/core/a.test.ts', "import { a } from '../../../src/core/a';\nvoid a;\n"),
    'a new test its globs match': () => write('test/unit/core/more/b.test.ts', '\n'),
    'a test removed': () => rmSync(join(folder.path, 'test/unit/core/a.test.ts')),
    'a file a test imports through a re-export': () => write('test/support/deep.ts', 'export const deep = 2;\n'),
    'a file a test imports dynamically, named .js': () => write('test/fakes/fakeThing.ts', 'export const fake = 2;\n'),
    'a fixture read by path': () => write('test/fixtures/sample.txt', 'changed\n'),
    'a fixture renamed': () => renameSync(join(folder.path, 'test/fixtures/sample.txt'), join(folder.path, 'test/fixtures/other.txt')),
    'the lockfile (the versions of Stryker and the libraries)': () => write('package-lock.json', '{"lockfileVersion":3,"x":1}'),
    "the runner's configuration": () => write('stryker.config.mjs', 'export default { concurrency: 1 };'),
  };
  for (const [what, change] of Object.entries(changes)) {
    it(`changes with ${what}`, () => {
      const before = mutationInputsDigest(folder.path, group);
      change();
      assert.notEqual(mutationInputsDigest(folder.path, group), before);
    });
  }

  it("changes with the group's definition: its threshold, its modules or its tests", () => {
    const before = mutationInputsDigest(folder.path, group);
    assert.notEqual(mutationInputsDigest(folder.path, { ...group, threshold: 80 }), before);
    assert.notEqual(mutationInputsDigest(folder.path, { ...group, spec: ['test/unit/core/a.test.ts', 'test/unit/core/none.test.ts'] }), before);
  });

  it('stays the same for a module nothing of the group reaches, and for the same files read again', () => {
    const before = mutationInputsDigest(folder.path, group);
    write('src/core/unrelated.ts', 'export const u = 2;\n');
    write('docs/notes.md', 'notes\n');
    assert.equal(mutationInputsDigest(folder.path, group), before);
  });
});
