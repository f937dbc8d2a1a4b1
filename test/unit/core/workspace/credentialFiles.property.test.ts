import assert from 'node:assert/strict';
import fc from 'fast-check';
import { caseFold } from '../../../../src/core/workspace/caseFold';
import { isCredentialFile } from '../../../../src/core/workspace/credentialFiles';
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

/** The judgement as it was before the quick paths: every name folded on its own, the copy marks cut from the whole path. */
function judgedInFull(relative: string): boolean {
  const copySuffixes = [
    /(?:~|\.\d+)$/,
    /[._-](?:bak|backup|old|orig|save|swp|tmp|copy)(?=(?:\.[^./ ]+)?$)/i,
    /(?: copy| - copy| \((?:\d+|copy|another copy|\d+(?:st|nd|rd|th) copy)\)| \d+)(?=(?:\.[^./ ]+)*$)/i,
  ];
  const cut = (from: string): string => copySuffixes.reduce((text, suffix) => text.replace(suffix, ''), from);
  let kept = relative.split('/').map((name) => fullFold(windowsName(name))).join('/');
  for (let shorter = cut(kept); shorter !== kept; shorter = cut(kept)) kept = shorter;
  return judgeFolded(kept);
}

/** `isCredentialFile`'s rules on a path already folded and cut (as in credentialFiles.ts). */
function judgeFolded(kept: string): boolean {
  const name = kept.slice(kept.lastIndexOf('/') + 1);
  const credentialName = new RegExp(
    '^(' +
      [
        String.raw`\.env([._-](?!(example|sample|template|dist)$)[^/]+)?`,
        String.raw`\.npmrc|\.yarnrc(\.yml)?|\.pypirc|[._]netrc|\.git-credentials|\.dockercfg|\.pgpass|\.my\.cnf|\.s3cfg|\.boto|\.vault-token`,
        String.raw`\.terraformrc|terraform\.rc|\.htpasswd|\.dev\.vars|credentials(\.json|\.toml)?|\.envrc`,
        String.raw`id_(rsa|dsa|ecdsa|ed25519)(_sk)?(\.(?!pub$)[^/]+)?`,
        String.raw`.+\.(pem|key|p8|ppk|p12|pfx|jks|keystore|keytab|kdbx)|.+\.env|.+\.tfstate(\.\d+)?(\.backup)?|.+\.tfvars(\.json)?|kubeconfig`,
      ].join('|') +
      ')$',
    'i',
  );
  if (credentialName.test(name)) return true;
  const path = `/${kept}`;
  if (/\/[^/]+\.git\/config$/.test(path)) return true;
  return ['.ssh/', '.gnupg/', '.docker/config.json', '.kube/config', 'gh/hosts.yml'].some((place) =>
    place.endsWith('/') ? path.includes(`/${place}`) && !name.endsWith('.pub') : path.endsWith(`/${place}`),
  );
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

  it('isCredentialFile judges every path as folding each name and cutting the copy marks from the whole path does', () => {
    fc.assert(
      fc.property(relativePath, (relative) => {
        assert.equal(isCredentialFile(relative), judgedInFull(relative), relative);
      }),
      { numRuns: 3000 },
    );
  });

  it('the control: the generator reaches credential files, plain files and names folded or cut before they are judged', () => {
    const samples = fc.sample(relativePath, { numRuns: 3000, seed: 7 });
    assert.ok(samples.some((relative) => isCredentialFile(relative)));
    assert.ok(samples.some((relative) => !isCredentialFile(relative)));
    assert.ok(samples.some((relative) => isCredentialFile(relative) && !judgeFolded(relative.toLowerCase())), 'no credential file needed folding or cutting');
  });
});
