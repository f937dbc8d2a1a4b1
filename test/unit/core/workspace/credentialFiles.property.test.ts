import assert from 'node:assert/strict';
import fc from 'fast-check';
import { caseFold, isPlainAscii } from '../../../../src/core/workspace/caseFold';
import { credentialKey, isCredentialFile } from '../../../../src/core/workspace/credentialFiles';
import { windowsName } from '../../../../src/core/workspace/windowsName';

// The quick paths (plain ASCII names folded by lower-casing the whole path, a name with no copy mark left uncut) must judge
// every path as the whole fold and the full cut do: a path they judged otherwise would be a secret read or a file refused.

/** `caseFold` without its ASCII shortcut. */
function fullFold(text: string): string {
  return text.normalize('NFKC').toUpperCase().toLowerCase();
}

// Built from the pieces that matter: credential names, copy marks, dots and spaces at the ends of names, letters that fold
// (ſ, the Kelvin sign, ı, fullwidth letters), credential places and plain names.
const piece = fc.constantFrom(
  '.env', 'env', '.npmrc', 'id_rsa', '.pub', 'credentials', '.json', 'kubeconfig', 'server', '.key', '.pem', 'config', '.ssh', '.docker',
  '.kube', 'gh', 'hosts.yml', 'mirror.git', '.git', '.tfstate', '.1', '.bak', '~', ' copy', ' - Copy', ' (1)', ' (copy)', ' 2', '_old',
  '-backup', '.orig', '.swp', '.', ' ', '..', 'ſ', '\u212A', 'ı', 'Ｋ', 'E', 'NV', 'ﬁ', 'src', 'notes', '.md', '.example', 'a', '7',
);
const segment = fc.array(piece, { minLength: 1, maxLength: 5 }).map((pieces) => pieces.join(''));
const relativePath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join('/'));

/** The key as it was made before the quick paths: every name folded on its own, the copy marks cut from the whole path. */
function keyInFull(relative: string): string {
  const copySuffixes = [
    /(?:~|\.\d+)$/,
    /[._-](?:bak|backup|old|orig|save|swp|tmp|copy)(?=(?:\.[^./ ]+)?$)/i,
    /(?: copy| - copy| \((?:\d+|copy|another copy|\d+(?:st|nd|rd|th) copy)\)| \d+)(?=(?:\.[^./ ]+)*$)/i,
  ];
  const cut = (from: string): string => copySuffixes.reduce((text, suffix) => text.replace(suffix, ''), from);
  let kept = relative.split('/').map((name) => fullFold(windowsName(name))).join('/');
  for (let shorter = cut(kept); shorter !== kept; shorter = cut(kept)) kept = shorter;
  return kept;
}

describe('credentialFiles quick paths (property)', () => {
  it('caseFold gives what the whole fold gives, for any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), segment), (text) => {
        assert.equal(caseFold(text), fullFold(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('credentialKey makes of every path what folding each name and cutting the copy marks from the whole path makes', () => {
    fc.assert(
      fc.property(relativePath, (relative) => {
        assert.equal(credentialKey(relative), keyInFull(relative), relative);
      }),
      { numRuns: 3000 },
    );
  });

  it('the control: the generator reaches credential files, plain files and names folded or cut before they are judged', () => {
    const samples = fc.sample(relativePath, { numRuns: 3000, seed: 7 });
    assert.ok(samples.some((relative) => isCredentialFile(relative)));
    assert.ok(samples.some((relative) => !isCredentialFile(relative)));
    // Both shortcuts are passed by: names that fold otherwise than lower case, and plain ones that lose a copy mark or a dot.
    assert.ok(samples.some((relative) => !isPlainAscii(relative) && credentialKey(relative) !== relative.toLowerCase()), 'no path needed folding');
    assert.ok(samples.some((relative) => isPlainAscii(relative) && credentialKey(relative) !== relative.toLowerCase()), 'no plain path needed cutting');
  });
});
