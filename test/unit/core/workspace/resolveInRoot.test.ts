import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { PathRefusedError, lexicallyInside, normalizeWorkspacePath, resolveInRoot } from '../../../../src/core/workspace/resolveInRoot';
import type { PathProbe } from '../../../../src/core/workspace/resolveInRoot';

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
      assert.deepEqual((await workspace.list()).files, ['inner/inside-link.txt', 'inner/ok.txt']);
    });
  });

  describe('refusals name their reason, and the limits are where they are said to be', () => {
    const refusal = (input: string, base?: string): PathRefusedError => {
      try {
        normalizeWorkspacePath(input, base);
      } catch (error) {
        assert.ok(error instanceof PathRefusedError, JSON.stringify(input));
        return error;
      }
      assert.fail(`${JSON.stringify(input)} was accepted`);
    };

    it('refuses characters that normalise (NFKC) to ".", "/", ":" or "%", and accepts ones that do not', () => {
      for (const input of ['\u2488\u2488/x', 'a\ufe6a2e', 'a\u2488b']) {
        assert.equal(refusal(input, root).reason, 'it contains a Unicode character that looks like ".", "/", "\\" or ":"', JSON.stringify(input));
      }
      assert.equal(normalizeWorkspacePath('\ufb01le.txt', root), '\ufb01le.txt');
      assert.equal(refusal('a/\u200b', root).reason, 'it contains an invisible or text-direction character');
      // HFS+ leaves these out of a name: `.g\u206Ait` opened `.git` (2026-12-03).
      for (const char of ['\u206a', '\u206f']) assert.equal(refusal(`.g${char}it/config`, root).reason, 'it contains an invisible or text-direction character');
    });

    it('attack: refuses a name holding what shows nothing or breaks a line where it is read (a model named a file to look like another)', () => {
      for (const char of ['\u{e0041}', '\u{e007f}', '\u{e0000}', '\u034f', '\u17b4', '\u17b5', '\ufff9', '\ufffb', '\u{1d173}', '\u{1d17a}']) {
        assert.equal(refusal(`notes${char}.md`, root).reason, 'it contains an invisible or text-direction character', JSON.stringify(char));
      }
      for (const char of ['\u0080', '\u0085', '\u009b', '\u009f', '\u2028', '\u2029']) {
        assert.equal(refusal(`notes${char}(approved).md`, root).reason, 'it contains a NUL or control character', JSON.stringify(char));
      }
      for (const name of ['\u00a0notes.md', 'caf\u00e9.md', '\u{1f600}.md', '\u180enotes.md', 'a\u{e0080}.md']) assert.equal(normalizeWorkspacePath(name, root), name, JSON.stringify(name));
    });

    it('attack: refuses a Windows short (8.3) name, which opens the long name it stands for there (GIT~1 is .git), and keeps names with a tilde', () => {
      for (const input of ['GIT~1/config', 'x/ENV~1', 'ENV~12.LOC', 'progra~1/a', 'TASK-P~1/tmp/x', 'GIT~1./config', 'GIT~1 /config']) {
        assert.match(refusal(input, root).reason, /looks like a Windows short \(8\.3\) name, which can stand for another file or folder; use its full name$/, input);
      }
      for (const input of ['notes~', 'a~b', 'file.txt~', 'longname~1', '~1', 'GIT~x', 'a.b~1', 'GIT~1.long', 'x/~']) {
        assert.equal(normalizeWorkspacePath(input, root), input, input);
      }
    });

    it('accepts names and paths right up to the length limits, and says which limit a longer one breaks', () => {
      const longName = 'x'.repeat(255);
      assert.equal(normalizeWorkspacePath(`src/${longName}`, root), `src/${longName}`);
      assert.equal(normalizeWorkspacePath(`${'\u00e9'.repeat(127)}x`, root), `${'\u00e9'.repeat(127)}x`);
      assert.equal(normalizeWorkspacePath('y'.repeat(100), root), 'y'.repeat(100));
      const longest = `${'d'.repeat(200)}/`.repeat(5) + 'f'.repeat(19);
      assert.equal(longest.length, 1024);
      assert.equal(normalizeWorkspacePath(longest, root), longest);
      const tooLong = refusal(`${longest}g`, root);
      assert.equal(tooLong.reason, 'it is longer than 1024 characters');
      assert.equal(tooLong.path, `${longest.slice(0, 80)}…`);
      assert.equal(refusal(`${longName}y`, root).reason, 'a path segment is longer than 255 bytes');
      assert.equal(refusal(`${longName}y`, root).path, `${longName.slice(0, 80)}…`);
      // Far over the limit before normalisation, even when it would normalise to almost nothing.
      assert.equal(normalizeWorkspacePath('./'.repeat(2048), root), '');
      assert.equal(refusal('./'.repeat(2049), root).reason, 'it is longer than 1024 characters');
      assert.equal(refusal('./'.repeat(2049), root).path, `${'./'.repeat(40)}…`);
    });

    it('refuses segments of dots and spaces, reserved device names with trailing dots or spaces, UNC and drive paths', () => {
      for (const input of [' ..', 'a/ . ', '  ']) assert.match(refusal(input, root).reason, /is made only of dots and spaces/, JSON.stringify(input));
      assert.equal(refusal('nul  ', root).reason, '"nul  " is a reserved device name');
      assert.equal(refusal('//work/project/x', root).reason, 'UNC and device paths (//server/share, \\\\?\\, \\\\.\\) are not allowed');
      assert.equal(refusal('c:/x', root).reason, 'drive-letter paths are not allowed');
      for (const input of ['src/lexicon.ts', 'notes/todo:later.md', 'x/.vimrc.', '.x. y']) assert.equal(normalizeWorkspacePath(input, root), input);
    });

    it('refuses absolute paths without a root to compare with, and non-strings', () => {
      assert.equal(refusal('/etc/passwd').reason, 'it is an absolute path outside the workspace');
      assert.equal(normalizeWorkspacePath(root, root), '');
      assert.equal(refusal(42 as unknown as string).reason, 'a path must be a string');
    });

    it('shows control characters in the message as escapes', () => {
      assert.equal(refusal('a\u0000b\u001f', root).message, 'Refused path "a\\u0000b\\u001f": it contains a NUL or control character. Use a path relative to the workspace root, such as "src/index.ts".');
    });

    it('tells inside from outside lexically, a longer sibling name included', () => {
      assert.equal(lexicallyInside(root, root), '');
      assert.equal(lexicallyInside(root, `${root}/a/b`), 'a/b');
      assert.equal(lexicallyInside(root, `${root}/..hidden`), '..hidden');
      for (const outside of ['/work', '/work/projectile', `${root}/../x`, '/']) assert.equal(lexicallyInside(root, outside), undefined, outside);
    });
  });

  describe('with a probe', () => {
    /** A file system of absolute paths: what each existing path resolves to, and which are links to nothing. */
    const probeOf = (real: Record<string, string>, dangling: string[] = []): PathProbe => ({
      realpath: async (absolute) => real[absolute],
      isSymlink: async (absolute) => dangling.includes(absolute),
    });
    const realRootOf = { [root]: root, [`${root}/src`]: `${root}/src` };

    it('resolves a path not there yet below its deepest existing folder, finding the real root itself', async () => {
      const probe = probeOf(realRootOf);
      assert.deepEqual(await resolveInRoot('src/new/file.ts', { root, probe }), { relative: 'src/new/file.ts', absolute: `${root}/src/new/file.ts`, real: `${root}/src/new/file.ts` });
      assert.deepEqual(await resolveInRoot('.', { root, probe }), { relative: '', absolute: root, real: root });
    });

    it('refuses a link into a sibling folder whose name starts with the root name', async () => {
      const probe = probeOf({ ...realRootOf, [`${root}/sneaky`]: '/work/projectile/secret' });
      await assert.rejects(resolveInRoot('sneaky', { root, realRoot: root, probe }), (error: unknown) => error instanceof PathRefusedError && error.reason === 'it leads outside the workspace through a symbolic link');
    });

    it('refuses a path through a link to nothing, and any path when the root is gone', async () => {
      const probe = probeOf(realRootOf, [`${root}/src/dangling`]);
      await assert.rejects(resolveInRoot('src/dangling/x.ts', { root, probe }), (error: unknown) => error instanceof PathRefusedError && error.reason === 'it goes through a symbolic link whose target does not exist');
      const gone = probeOf({ '/work': '/work' });
      for (const options of [{ root, probe: gone }, { root, realRoot: root, probe: gone }]) {
        await assert.rejects(resolveInRoot('a.txt', options), (error: unknown) => error instanceof PathRefusedError && error.reason === `the workspace root ${root} does not exist`);
      }
    });
  });
});
