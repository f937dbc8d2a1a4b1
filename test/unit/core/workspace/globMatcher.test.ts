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
    [' *.ts ', ['a.ts'], ['a.js']],
    ['?.md', ['\u{1F600}.md'], ['ab.md']],
    ['x./*.ts', ['x./a.ts'], ['xa.ts', 'a.ts']],
    ['notes/a:b.txt', ['notes/a:b.txt'], ['notes/ab.txt']],
    ['a\\', ['a\\'], ['a']],
    ['src/a**b.ts', ['src/axxb.ts', 'src/ab.ts'], ['src/a/x/b.ts']],
    ['src/**b', ['src/xb'], ['src/x/yb']],
    ['x**/y', ['xa/y'], ['xa/b/y']],
    ['d/**', ['d/a/b'], ['d']],
    ['[]a]x', [']x', 'ax'], ['bx']],
    ['a[b', ['a[b'], ['ab']],
    ['[^a]*.txt', ['beta.txt'], ['alpha.txt']],
    ['d/x[!a]y', ['d/xby'], ['d/x/y', 'd/xay']],
    ['[a^]', ['^', 'a'], ['b']],
    ['a,b}', ['a,b}'], ['a', 'b}']],
  ];
  for (const [glob, yes, no] of cases) {
    it(`"${glob}" matches ${yes.join(', ')}${no.length ? ` and not ${no.join(', ')}` : ''}`, () => {
      const matches = compileGlob(glob);
      for (const path of yes) assert.equal(matches(path), true, path);
      for (const path of no) assert.equal(matches(path), false, path);
    });
  }

  it('refuses globs that are absolute or climb out, and unclosed braces, saying why', () => {
    const refusals: [string, RegExp][] = [
      ['/etc/*', /a glob must be relative to the workspace root/],
      ['C:/x/*', /a glob must be relative to the workspace root/],
      ['\\\\server\\x', /a glob must be relative to the workspace root/],
      ['../*', /a glob must not climb out with "\.\."/],
      ['a/../../*', /a glob must not climb out with "\.\."/],
      ['{a,b', /the glob has an unclosed "\{"/],
    ];
    for (const [glob, reason] of refusals) assert.throws(() => compileGlob(glob), (error: unknown) => error instanceof PathRefusedError && reason.test(error.message), glob);
  });
});
