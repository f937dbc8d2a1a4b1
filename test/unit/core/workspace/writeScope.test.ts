import assert from 'node:assert/strict';
import { inWriteScope, normalizeScopePattern, writeScopesOverlap, type WriteScope } from '../../../../src/core/workspace/writeScope';

const patterns = (...list: string[]): WriteScope => ({ kind: 'patterns', patterns: list });

describe('write scopes', () => {
  it('a path is a file or, as a folder, everything in it; a glob matches as workspace globs do', () => {
    assert.ok(inWriteScope('src/a.ts', ['src/a.ts']));
    assert.ok(inWriteScope('src/deep/a.ts', ['src']));
    assert.ok(inWriteScope('src/deep/a.ts', ['./src/']));
    assert.ok(!inWriteScope('src2/a.ts', ['src']));
    assert.ok(!inWriteScope('src/b.ts', ['src/a.ts']));
    assert.ok(inWriteScope('docs/x/y.md', ['docs/**']));
    assert.ok(inWriteScope('any/where/README.md', ['*.md']));
    assert.ok(!inWriteScope('src/a.ts', ['docs/**', 'test']));
    assert.equal(normalizeScopePattern(' ./a//b/ '), 'a/b');
  });

  it('steps that change nothing never conflict; a step that may change anything conflicts with every writer', () => {
    const nothing: WriteScope = { kind: 'nothing' };
    const everything: WriteScope = { kind: 'everything' };
    assert.equal(writeScopesOverlap(nothing, everything), false);
    assert.equal(writeScopesOverlap(everything, nothing), false);
    assert.equal(writeScopesOverlap(everything, patterns('a.txt')), true);
    assert.equal(writeScopesOverlap(patterns('a.txt'), everything), true);
    assert.equal(writeScopesOverlap(everything, everything), true);
  });

  it('paths overlap when one is or holds the other; globs when their fixed folders nest; a glob without a folder is anywhere', () => {
    const cases: [string, string, boolean][] = [
      ['f.txt', 'f.txt', true],
      ['f.txt', 'g.txt', false],
      ['src', 'src/a.ts', true],
      ['src/a.ts', 'src/b.ts', false],
      ['src/**', 'test/**', false],
      ['src/**/*.ts', 'src/deep/a.ts', true],
      ['src/**', 'srcs/a.ts', false],
      ['*.md', 'src/a.ts', true],
      ['docs/*.md', 'docs', true],
      ['a/b/c.txt', 'a/x/**', false],
    ];
    for (const [a, b, overlap] of cases) {
      assert.equal(writeScopesOverlap(patterns(a), patterns(b)), overlap, `${a} / ${b}`);
      assert.equal(writeScopesOverlap(patterns(b), patterns(a)), overlap, `${b} / ${a}`);
    }
    assert.equal(writeScopesOverlap(patterns('a.txt', 'src/**'), patterns('b.txt', 'src/x.ts')), true, 'any pair of patterns');
  });
});
