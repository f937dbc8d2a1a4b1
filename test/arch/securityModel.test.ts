import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

/** The bullet lines between `<!-- promises:start -->` and `<!-- promises:end -->` of `text`. */
function promises(text: string, where: string): string[] {
  const block = /<!-- promises:start -->\n([\s\S]*?)<!-- promises:end -->/.exec(text);
  assert.ok(block?.[1], `${where} has no promises block`);
  return block[1].split('\n').filter((line) => line.startsWith('- '));
}

describe('architecture: the security model is written down and the README says the same', () => {
  const model = read('docs/security.md');

  it('lists the same promises in docs/security.md and the README, word for word', () => {
    const ours = promises(model, 'docs/security.md');
    assert.ok(ours.length >= 10, 'docs/security.md lists its promises');
    assert.deepEqual(promises(read('README.md'), 'README.md'), ours);
  });

  it('cites only files that exist, so each attack named is kept as a test', () => {
    const cited = [...model.matchAll(/`((?:src|test)\/[^`\s]+\.ts)`/g)].map((match) => match[1] ?? '');
    assert.ok(cited.filter((path) => path.startsWith('test/')).length >= 20, 'the attacks table names its tests');
    assert.deepEqual(
      cited.filter((path) => !existsSync(join(root, path))),
      [],
      'docs/security.md names files that do not exist',
    );
  });

  it('names a surface for every kind of untrusted input the README names', () => {
    for (const surface of ['Model output', 'The workspace', 'MCP servers', 'Web servers', "Other extensions' language-model tools", "The plan panel's page"]) {
      assert.ok(model.includes(`**${surface}**`), `docs/security.md names ${surface} as a boundary`);
    }
  });
});
