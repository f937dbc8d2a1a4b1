import assert from 'node:assert/strict';
import { cleanToken, isDirectoryToken, isPathToken, pathsInText } from '../../../../src/core/text/pathsInText';

describe('pathsInText', () => {
  describe('isPathToken', () => {
    const paths = ['src/app.ts', 'README.md', '.env', '.dockerignore', 'Makefile', 'src/', '@types/node', 'docs/2.0', 'docs/v1.2', 'v1.2.md', 'lib/index.js', `${'a'.repeat(297)}.ts`];
    for (const token of paths) it(`takes ${JSON.stringify(token.slice(0, 40))} for a path`, () => assert.equal(isPathToken(token), true));

    const notPaths = ['', `${'a'.repeat(298)}.ts`, '15.2', '.5', '1.2.3', 'v1.2.0', 'v1.2.0-rc.beta', '10.20.0-rc.beta', 'Next.js', 'NODE.JS', 'e.g', '@mention.md', 'https://example.com/a.ts', 'hello', 'makefile', 'a.b_c_d'];
    for (const token of notPaths) it(`does not take ${JSON.stringify(token.slice(0, 40))} for a path`, () => assert.equal(isPathToken(token), false));
  });

  it('isDirectoryToken: a trailing slash, or a name without an extension that is not a dotfile or a well-known file', () => {
    assert.deepEqual(
      ['src/', '.github/', 'src/components', 'config.old_1', 'src/app.ts', '.dockerignore', '.env', 'Dockerfile'].map((token) => [token, isDirectoryToken(token)]),
      [['src/', true], ['.github/', true], ['src/components', true], ['config.old_1', true], ['src/app.ts', false], ['.dockerignore', false], ['.env', false], ['Dockerfile', false]],
    );
  });

  it('cleanToken strips quotes, brackets and sentence punctuation around a word, never inside it', () => {
    assert.equal(cleanToken('(("src/a.ts"))'), 'src/a.ts');
    assert.equal(cleanToken('`README.md`.'), 'README.md');
    assert.equal(cleanToken('"README.md".'), 'README.md');
    assert.equal(cleanToken('README.md?!'), 'README.md');
    assert.equal(cleanToken('a.ts).))'), 'a.ts');
    assert.equal(cleanToken('pages/[id].tsx'), 'pages/[id].tsx');
    assert.equal(cleanToken("user's.md"), "user's.md");
  });

  it('pathsInText lists each path once, in order, without URLs, and drops a leading "./" only', () => {
    assert.deepEqual(pathsInText('Read ./src/a.ts, then README.md and src/a.ts.'), ['src/a.ts', 'README.md']);
    assert.deepEqual(pathsInText('See https://example.com/a.ts and http://example.com/b.md or src/c.ts'), ['src/c.ts']);
    assert.deepEqual(pathsInText('Compare ../lib/a.ts with lib/./b.ts'), ['../lib/a.ts', 'lib/./b.ts']);
  });
});

describe('cleanToken: long runs in linear time (ReDoS)', () => {
  it('keeps a word whose run of dots does not end it (15 s at 50,000 before), and strips one that does', () => {
    const word = `a${'.'.repeat(200_000)}x`;
    assert.equal(cleanToken(word), word);
    assert.equal(cleanToken(`"a.md"${'.'.repeat(200_000)}`), 'a.md');
  });
});
