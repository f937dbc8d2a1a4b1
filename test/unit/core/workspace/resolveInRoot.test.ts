import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { PathRefusedError, lexicallyInside, normalizeWorkspacePath, resolveInRoot } from '../../../../src/core/workspace/resolveInRoot';

const root = '/work/project';

/** Paths refused without looking at any disk. */
const lexicalHostile: string[] = [
  '..', '../', '../x', '../../etc/passwd', 'a/../../x', './../x', 'a/b/../../../x', 'a/./../..', '..\\x', 'a\\..\\..\\x',
  '/etc/passwd', '/', '/tmp/x', '/work/project/../other/x', '/work/projectile/x', '/work', '//etc/passwd',
  'a\u0000b', '\u0000', 'a/b\u0000.txt', 'line\nbreak', 'tab\there', 'bell\u0007', 'del\u007f',
  '\\\\server\\share\\x', '//server/share/x', '\\\\?\\C:\\Windows', '\\\\.\\pipe\\x', '//?/C:/x', '//./COM1',
  'C:\\Windows\\win.ini', 'c:/x', 'C:x', 'D:', 'z:\\',
  'CON', 'nul', 'aux.js', 'COM1', 'lpt9.txt', 'src/PRN', 'nul.tar.gz', 'CONIN$', 'com\u00b9', 'NUL. ',
  '%2e%2e/x', '%2E%2E%2Fetc', '..%2fetc', '%252e%252e/x', 'a%5c..%5c..%5cx', 'a%00b', '%3a',
  '\uff0e\uff0e/x', '\u2025/x', '\u2024\u2024/x', '..\uff0fx', 'a\u2215..\u2215..\u2215x', '\ufe52\ufe52/x', 'a\uff3c..\uff3cx', '..\u2044x', '\u3002\u3002/x', 'a\uff1a',
  '..\u200b/x', 'a\u202e/txt.exe', '\ufeff../x', 'zero\u200dwidth',
  '...', '. .', 'a/.../b', '.. ', '~', '~/x', 'file.txt::$DATA', 'ads:',
  'x'.repeat(256), `${'abc/'.repeat(300)}x`, `${'é'.repeat(128)}.txt`,
];

describe('resolveInRoot', () => {
  it(`refuses ${lexicalHostile.length} hostile paths lexically, each with a reason`, async () => {
    assert.ok(lexicalHostile.length >= 60);
    for (const hostile of lexicalHostile) {
      assert.throws(() => normalizeWorkspacePath(hostile, root), PathRefusedError, JSON.stringify(hostile));
      await assert.rejects(resolveInRoot(hostile, { root }), (error: unknown) => {
        assert.ok(error instanceof PathRefusedError, JSON.stringify(hostile));
        assert.match(error.message, /^Refused path ".*": .+\. Use a path relative to the workspace root/su);
        return true;
      });
    }
  });

  it('normalises legitimate paths with dots, spaces and Unicode', () => {
    const cases: [string, string][] = [
      ['src/index.ts', 'src/index.ts'], ['./src//index.ts', 'src/index.ts'], ['src\\win\\style.ts', 'src/win/style.ts'],
      ['a/b/../c', 'a/c'], ['.env', '.env'], ['..hidden', '..hidden'], ['a..b', 'a..b'], ['v1.2.3/notes...md', 'v1.2.3/notes...md'],
      ['my file (1).txt', 'my file (1).txt'], ['café/résumé.md', 'café/résumé.md'], ['日本語/ファイル.txt', '日本語/ファイル.txt'],
      ['100% done.txt', '100% done.txt'], ['a%20b', 'a%20b'], ['', ''], ['.', ''], ['./', ''], ['/work/project', ''],
      ['/work/project/src/a.ts', 'src/a.ts'], ['console.log', 'console.log'], ['conman.txt', 'conman.txt'], ['2024-01-01T10:00.log', '2024-01-01T10:00.log'],
      ['~backup', '~backup'], ['a/~', 'a/~'],
    ];
    for (const [input, expected] of cases) assert.equal(normalizeWorkspacePath(input, root), expected, input);
  });

  it('never returns a path outside the root, whatever the input (property)', () => {
    const pieces = fc.constantFrom('..', '.', 'a', 'b', '', '/', '\\', '%2e', '\uff0e', 'C:', '~', '\u0000', ' ', 'é', 'CON', '...');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), fc.boolean(), (parts, leadingSlash) => {
        const input = (leadingSlash ? '/' : '') + parts.join('');
        let normalised: string;
        try {
          normalised = normalizeWorkspacePath(input, root);
        } catch (error) {
          return error instanceof PathRefusedError;
        }
        const joined = path.posix.join(root, normalised);
        return lexicallyInside(root, joined) !== undefined && !normalised.split('/').includes('..') && !normalised.startsWith('/');
      }),
      { numRuns: 2000 },
    );
  });

  describe('with real symbolic links on disk', () => {
    let base: string;
    let workspaceRoot: string;
    let outside: string;

    before(() => {
      base = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-confine-'));
      workspaceRoot = path.join(base, 'root');
      outside = path.join(base, 'outside');
      fs.mkdirSync(path.join(workspaceRoot, 'inner/deeper'), { recursive: true });
      fs.mkdirSync(outside);
      fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
      fs.writeFileSync(path.join(workspaceRoot, 'inner/ok.txt'), 'ok');
      fs.symlinkSync(outside, path.join(workspaceRoot, 'dirlink'));
      fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(workspaceRoot, 'filelink.txt'));
      fs.symlinkSync('../../../outside', path.join(workspaceRoot, 'inner/deeper/relative-out'));
      fs.symlinkSync('..', path.join(workspaceRoot, 'up'));
      fs.symlinkSync(path.join(workspaceRoot, 'dirlink'), path.join(workspaceRoot, 'chain'));
      fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(workspaceRoot, 'dangling.txt'));
      fs.symlinkSync(path.join(base, 'missing-dir'), path.join(workspaceRoot, 'dangling-dir'));
      fs.symlinkSync('loop-b', path.join(workspaceRoot, 'loop-a'));
      fs.symlinkSync('loop-a', path.join(workspaceRoot, 'loop-b'));
      fs.symlinkSync('ok.txt', path.join(workspaceRoot, 'inner/inside-link.txt'));
      fs.symlinkSync('inner', path.join(workspaceRoot, 'inner-dir-link'));
    });
    after(() => fs.rmSync(base, { recursive: true, force: true }));

    const diskHostile = [
      'dirlink', 'dirlink/secret.txt', 'dirlink/new.txt', 'dirlink/sub/new.txt', 'filelink.txt', 'inner/deeper/relative-out/secret.txt',
      'inner/deeper/relative-out', 'up', 'up/outside/secret.txt', 'chain/secret.txt', 'dangling.txt', 'dangling-dir/new.txt', 'loop-a', 'loop-b/x',
    ];

    it(`refuses ${diskHostile.length} paths through links that lead out, in every operation`, async () => {
      const workspace = createNodeWorkspace(workspaceRoot);
      for (const hostile of diskHostile) {
        await assert.rejects(workspace.readText(hostile), PathRefusedError, `read ${hostile}`);
        await assert.rejects(workspace.writeText(hostile, 'pwned'), PathRefusedError, `write ${hostile}`);
        await assert.rejects(workspace.delete(hostile), PathRefusedError, `delete ${hostile}`);
        await assert.rejects(workspace.createDirectory(`${hostile}/d`), PathRefusedError, `mkdir ${hostile}`);
        await assert.rejects(workspace.stat(hostile), PathRefusedError, `stat ${hostile}`);
      }
      assert.deepEqual(fs.readdirSync(outside), ['secret.txt']);
      assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'secret');
      assert.equal(fs.existsSync(path.join(base, 'missing-dir')), false);
    });

    it('follows links that stay inside the root, and lists only those', async () => {
      const workspace = createNodeWorkspace(workspaceRoot);
      assert.equal(await workspace.readText('inner/inside-link.txt'), 'ok');
      assert.equal(await workspace.readText('inner-dir-link/ok.txt'), 'ok');
      await workspace.writeText('inner/inside-link.txt', 'changed through link');
      assert.equal(fs.readFileSync(path.join(workspaceRoot, 'inner/ok.txt'), 'utf8'), 'changed through link');
      assert.ok(fs.lstatSync(path.join(workspaceRoot, 'inner/inside-link.txt')).isSymbolicLink());
      assert.deepEqual(await workspace.list(), ['inner/inside-link.txt', 'inner/ok.txt']);
    });
  });
});
