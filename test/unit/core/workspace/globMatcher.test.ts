import assert from 'node:assert/strict';
import { compileGlob } from '../../../../src/core/workspace/globMatcher';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';

describe('compileGlob', () => {
  const cases: [string, string[], string[]][] = [
    ['*.ts', ['a.ts', 'src/deep/b.ts'], ['a.tsx', 'a.js']],
    ['src/*.ts', ['src/a.ts'], ['src/x/a.ts', 'a.ts']],
    ['src/**/*.ts', ['src/a.ts', 'src/x/y/a.ts'], ['lib/a.ts']],
    ['**/test/**', ['test/a', 'x/test/b/c'], ['tests/a']],
    ['src/**', ['src/a', 'src/x/y'], ['lib/src']],
    ['?.md', ['a.md', 'docs/b.md'], ['ab.md']],
    ['[ab]*.txt', ['alpha.txt', 'beta.txt'], ['gamma.txt']],
    ['[!a]*.txt', ['beta.txt'], ['alpha.txt']],
    ['**/*.{ts,tsx}', ['a.ts', 'x/b.tsx'], ['c.js']],
    ['file\\*.txt', ['file*.txt'], ['fileX.txt']],
    ['a+b (1).txt', ['a+b (1).txt'], ['aab (1).txt']],
    ['./src/*.ts', ['src/a.ts'], ['a.ts']],
    ['', ['anything/at/all'], []],
  ];
  for (const [glob, yes, no] of cases) {
    it(`"${glob}" matches ${yes.join(', ')}${no.length ? ` and not ${no.join(', ')}` : ''}`, () => {
      const matches = compileGlob(glob);
      for (const path of yes) assert.equal(matches(path), true, path);
      for (const path of no) assert.equal(matches(path), false, path);
    });
  }

  it('refuses globs that are absolute or climb out, and unclosed braces', () => {
    for (const glob of ['/etc/*', '../*', 'a/../../*', 'C:/x/*', '\\\\server\\x', '{a,b']) assert.throws(() => compileGlob(glob), PathRefusedError, glob);
  });
});
