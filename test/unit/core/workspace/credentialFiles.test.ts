import assert from 'node:assert/strict';
import { holdsPrivateKey, isCredentialFile, privateKeyReason, withheldPrivateKey, withoutPrivateKeys } from '../../../../src/core/workspace/credentialFiles';

describe('isCredentialFile', () => {
  const credentials = [
    '.env', '.env.local', '.env.production', '.env.examples', 'deploy/prod.env', 'config/.ENV', 'app/.env.test', '.envrc', '.npmrc', 'sub/.pypirc', '.netrc', '_netrc', '.git-credentials',
    '.dockercfg', 'credentials', '.aws/credentials', 'credentials.json', 'id_rsa', 'keys/id_ed25519', 'id_ecdsa_sk', 'server.pem', 'tls/server.KEY',
    'store.p12', 'cert.pfx', 'release.jks', 'app.keystore', 'terraform.tfstate', 'terraform.tfstate.backup', 'prod.tfvars', 'prod.tfvars.json',
    // An outside attacker's list (2026-12-01): each was read and its key sent to the model.
    '.pgpass', '.docker/config.json', 'home/.cargo/credentials.toml', '.yarnrc.yml', '.yarnrc', '.kube/config', '.config/gh/hosts.yml', '.vault-token',
    '.dev.vars', '.env-prod', 'id_rsa.bak', 'AuthKey_X.p8', 'server.ppk', '.s3cfg', '.terraformrc', '.my.cnf', '.boto', '.htpasswd', 'svc.keytab',
    'vault.kdbx', '.ssh/deploy', 'home/.ssh/config', '.gnupg/private-keys-v1.d/A.key', '.gnupg/pubring.kbx',
    // The second attacker's (2026-12-01).
    'terraform.tfstate.1700000000.backup', '.env_prod', '.env~', '.npmrc.bak', '.pgpass~', 'credentials.bak', '.netrc.bak', '.docker/config.json.bak',
    '.kube/config.bak', 'kubeconfig', '.vault-token.old', '.env.local.orig', 'id_rsa.swp',
    // A third attacker's (2026-12-01): copies named as file managers and browsers name them, and a bare clone's config.
    '.env copy', '.env copy 2', '.env (1)', '.npmrc - Copy', '.npmrc - Copy (2)', '.git-credentials copy', 'id_rsa copy', 'credentials (1).json',
    'credentials - Copy.json', '.env copy.bak', 'mirror.git/config', 'vendor/repo.GIT/config', '.env copy 12', '.env (12)', '.npmrc - Copy (12)',
    'prod (1).tfvars.json',
    // The same attacker's second round: GNOME's and wget's copies, backups named with _ or -, macOS's "name 2".
    '.env (copy)', '.env (another copy)', '.env (3rd copy)', '.npmrc.1', '.npmrc_bak', '.npmrc-old', 'id_rsa-old', 'credentials_old',
    'credentials-backup.json', '.env 2', '.ENV COPY', 'id_ed25519 (2)', '.env.local copy', '.npmrc.12', '.env (12th copy)', '.env 12',
    // Names Windows opens without their trailing dots and spaces (2026-12-03).
    '.env.', '.env ', '.npmrc. .', 'id_rsa.', '.ssh./deploy', '.ssh /deploy', '.kube. /config',
    // Letters a case-insensitive disk (APFS, NTFS) folds to ASCII ones: each opened the file it spells there (2026-12-06).
    'deploy.\u212Aey', '\u212Aubeconfig', '.pgpa\u017F\u017F', 'credential\u017F', '.\u017Fsh/id_rsa', 'id_r\u017Fa', '.git-credential\u017F', 'prod.tf\u017Ftate',
    // Names of no ASCII letter at all, which compatibility folding makes ASCII (fullwidth kubeconfig, .npmrc, credentials).
    '\uFF4B\uFF55\uFF42\uFF45\uFF43\uFF4F\uFF4E\uFF46\uFF49\uFF47', '\uFF0E\uFF4E\uFF50\uFF4D\uFF52\uFF43', 'Ｃｒｅｄｅｎｔｉａｌｓ',
  ];
  const ordinary = [
    '.env.example', '.env.sample', '.env.template', '.env.dist', 'id_rsa.pub', 'src/credentials.ts', 'docs/credentials.md', 'keyboard.ts',
    'keys.json', 'README.md', 'environment.ts', 'src/env.ts', '.envoy', 'monkey', 'package.json', '.npmrc.md', 'pem', 'key', 'x.npmrc', 'env',
    '.env-example', 'id_ed25519.pub', '.ssh/id_rsa.pub', 'src/docker/config.json', 'config/kube/config', 'hosts.yml', '.yarnrc.md', 'src/ssh/client.ts',
    '.env.example.bak', 'notes.bak', 'README.md~', 'kubeconfig.ts', '.ssh/id_rsa.pub.bak',
    'notes (1).md', 'README copy.md', 'id_rsa copy.pub', '.env.example copy', 'copy', '(1)', 'mirror.git/HEAD', 'src/git/config', 'config',
    'kube (1)config', 'kube copyconfig', 'mirror.git/configs/readme.md', 'notes (copy).md', 'notes_old.md', 'report.1', 'id_rsa-old.pub',
    '.env.example (copy)', '.env.example_bak', 'kube.1config', 'kube~config', 'kube_bakconfig', 'kube 2config',
    '.env.example.', 'id_rsa.pub.', '.ssh./id_rsa.pub',
  ];
  for (const path of credentials) it(`holds credentials by its name: ${path}`, () => assert.equal(isCredentialFile(path), true));
  for (const path of ordinary) it(`is an ordinary file: ${path}`, () => assert.equal(isCredentialFile(path), false));
});

// The first attacker's find (2026-12-01): a service account's key in a file of any name reached the model.
describe('holdsPrivateKey', () => {
  it('finds a private key in any of its forms, anywhere in a text', () => {
    for (const text of [
      '-----BEGIN PRIVATE KEY-----\nMIIE',
      '{"private_key": "-----BEGIN RSA PRIVATE KEY-----\\nMIIE"}',
      'x\n-----BEGIN OPENSSH PRIVATE KEY-----',
      '-----BEGIN ENCRYPTED PRIVATE KEY-----',
      '-----BEGIN EC PRIVATE KEY-----',
      '-----BEGIN PGP PRIVATE KEY BLOCK-----',
      'PuTTY-User-Key-File-2: ssh-rsa',
      'PuTTY-User-Key-File-3: ssh-ed25519',
      'PuTTY-User-Key-File-10: a later format',
    ]) {
      assert.equal(holdsPrivateKey(text), true, text);
    }
    assert.equal(privateKeyReason, 'it holds a private key, and tools do not read it: what a tool reads goes to the model');
  });

  it('leaves public keys, certificates and words about keys alone', () => {
    for (const text of [
      '-----BEGIN PUBLIC KEY-----',
      '-----BEGIN CERTIFICATE-----',
      'ssh-ed25519 AAAAC3Nza user@host',
      'the PRIVATE KEY----- is in the vault',
      '-----BEGIN private key-----',
      '-----BEGIN PGP PRIVATE KEY BLOCKS-----',
      'PuTTY-User-Key-File-x: ssh-rsa',
      'PuTTY-User-Key-File-: ssh-rsa',
      '',
    ]) {
      assert.equal(holdsPrivateKey(text), false, text);
    }
  });
});

describe('withoutPrivateKeys', () => {
  const body = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC';
  const pem = (kind: string) => `-----BEGIN ${kind}-----\n${body}\n-----END ${kind}-----`;

  it('takes out each key from its first line to its last, whatever its form, and keeps the rest', () => {
    for (const kind of ['PRIVATE KEY', 'RSA PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'EC PRIVATE KEY', 'PGP PRIVATE KEY BLOCK']) {
      assert.equal(withoutPrivateKeys(`before\n${pem(kind)}\nafter`), `before\n${withheldPrivateKey}\nafter`, kind);
    }
    assert.equal(withoutPrivateKeys(`a ${pem('PRIVATE KEY')} b ${pem('EC PRIVATE KEY')} c`), `a ${withheldPrivateKey} b ${withheldPrivateKey} c`);
    const putty = `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n${body}\nPrivate-MAC: 0a1b2c\nnext`;
    assert.equal(withoutPrivateKeys(putty), `${withheldPrivateKey}\nnext`);
  });

  it('takes out a key cut short: to the end when its last line is missing, from the start when only its last line is left', () => {
    assert.equal(withoutPrivateKeys(`head\n-----BEGIN PRIVATE KEY-----\n${body}`), `head\n${withheldPrivateKey}`);
    assert.equal(withoutPrivateKeys(`…(output cut)…\n${body}\n-----END PRIVATE KEY-----\ntail`), `${withheldPrivateKey}\ntail`);
  });

  it('leaves a text with no private key as it was: certificates, public keys, words about keys', () => {
    for (const text of ['', pem('CERTIFICATE'), pem('PUBLIC KEY'), 'ssh-ed25519 AAAAC3Nza user@host', 'the PRIVATE KEY----- is in the vault']) {
      assert.equal(withoutPrivateKeys(text), text);
    }
  });
});
