import assert from 'node:assert/strict';
import { pathArgumentNotCovered } from '../../../../src/core/tools/argumentPaths';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';
import { hardLinkError } from '../../../../src/core/workspace/workspaceError';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { neverAborted } from '../../../fakes/toolContext';

/** A workspace where `out/…` is a link out of it and `key.md` a link to `.env`. */
function workspace() {
  const files = createMemoryWorkspace({ '.env': 'KEY=x', 'a.md': 'a', 'sub/.env.local': 'x', 'sub/b.md': 'b', 'key.md': 'x' });
  return {
    ...files,
    locate: (path: string) => {
      if (path === 'out' || path.startsWith('out/')) return Promise.reject(new PathRefusedError(path, 'it is a symbolic link leading outside the workspace'));
      if (path === 'broken') return Promise.reject(new Error('the disk failed'));
      if (path === 'linked.txt') return Promise.reject(hardLinkError('linked.txt', path, 2));
      return Promise.resolve(path === 'key.md' ? '.env' : path);
    },
  };
}
const notCovered = (args: string[], cwd = '') => pathArgumentNotCovered(workspace(), cwd, args, neverAborted);

describe('pathArgumentNotCovered', () => {
  it('says which argument leads out through a link, or names a file kept from the model, by itself, as a value or a response file', async () => {
    assert.deepEqual(
      await Promise.all([
        notCovered(['out/hostname']),
        notCovered(['-n', '.env']),
        notCovered(['--file=.env']),
        notCovered(['x=a.md,.env']),
        notCovered(['@key.md']),
        notCovered(['key.md']),
        notCovered(['.env.local'], 'sub'),
        // After a colon, as git names a file of a revision (an outside attack printed HEAD:.npmrc under "git show ...").
        notCovered(['HEAD:.npmrc']),
        notCovered(['-L1,5:key.md']),
        notCovered(['v1:docs:.npmrc']),
        // A file with another name, which may be outside (the workspace refuses it as a read would).
        notCovered(['-n', 'linked.txt']),
      ]),
      [
        '"out/hostname" leads out of the workspace (it is a symbolic link leading outside the workspace)',
        '".env" is a file tools keep from the model (.env), and a command\'s output reaches the model',
        '".env" is a file tools keep from the model (.env), and a command\'s output reaches the model',
        '".env" is a file tools keep from the model (.env), and a command\'s output reaches the model',
        '"key.md" is a file tools keep from the model (.env), and a command\'s output reaches the model',
        '"key.md" is a file tools keep from the model (.env), and a command\'s output reaches the model',
        '".env.local" is a file tools keep from the model (sub/.env.local), and a command\'s output reaches the model',
        '".npmrc" is a file tools keep from the model (.npmrc), and a command\'s output reaches the model',
        '"key.md" is a file tools keep from the model (.env), and a command\'s output reaches the model',
        '".npmrc" is a file tools keep from the model (.npmrc), and a command\'s output reaches the model',
        '"linked.txt" is a hard link: the same file has other names, and one may be outside the workspace',
      ],
    );
  });

  it('leaves alone what names no such path: files inside, options without a value, words with spaces, paths it cannot read as a path', async () => {
    assert.deepEqual(
      await Promise.all([
        notCovered([]),
        notCovered(['a.md', 'sub/b.md', 'missing.md']),
        notCovered(['b.md'], 'sub'),
        notCovered(['--out', '-v', '--fix']),
        notCovered(['a grep pattern with .env in it']),
        notCovered(['--format=%H', 'C:\\x', '\u0000']),
        // An option's own name is no path, whatever it looks like; a word with a space names no file the check looks for.
        notCovered(['-.env=a.md', '--.env']),
        notCovered([' .env', 'x=', '@']),
        notCovered(['out/x y', 'HEAD:a.md', 'https://example.com/.env', 'a:']),
      ]),
      [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined],
    );
  });

  it('passes on a failure other than a refused path, and asks for more arguments than it looks at', async () => {
    await assert.rejects(notCovered(['broken']), /the disk failed/);
    assert.equal(await notCovered(Array.from({ length: 64 }, () => 'a.md')), undefined);
    assert.equal(
      await notCovered(Array.from({ length: 65 }, () => 'a.md')),
      "the command has more than 64 arguments, more than the rule's check of the paths they name looks at",
    );
  });
});

describe('pathArgumentNotCovered: a value glued to a cluster of short options', () => {
  const kept = createMemoryWorkspace({ '.npmrc': 't', id_rsa: 'k', 'src/a.ts': 'a' });
  const check = (args: string[], files = kept) => pathArgumentNotCovered(files, '', args, neverAborted);

  it('attack: names a kept file glued after any letter or digit of the cluster (grep -f.npmrc, -nf.npmrc, -1fid_rsa read it)', async () => {
    for (const argument of ['-f.npmrc', '-nf.npmrc', '-1f.npmrc', '-fid_rsa', '-rnfid_rsa', '-X.npmrc']) {
      assert.match((await check([argument])) ?? '', /is a file tools keep from the model/, argument);
    }
  });

  it('glues nothing to a long option or a lone dash, and names no file past what the cluster holds', async () => {
    for (const argument of ['--f.npmrc', '--fid_rsa', '-', '-f', '-nsrc/a.ts', '-f.npmrcx', '-fid_rsa.pub']) {
      assert.equal(await check([argument]), undefined, argument);
    }
  });

  it('finds what follows the last letters of a cluster of ten thousand, and nothing in the letters themselves', async () => {
    const many = 'n'.repeat(10_000);
    assert.match((await check([`-${many}fid_rsa`])) ?? '', /id_rsa/);
    assert.match((await check([`-${many}f.npmrc`])) ?? '', /\.npmrc/);
    assert.equal(await check([`-${many}`]), undefined);
    assert.equal(await check([`-${many}fcredentialsx`]), undefined, 'a name the cluster runs on past');
  });
});
