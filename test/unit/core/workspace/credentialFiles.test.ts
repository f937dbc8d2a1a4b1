import assert from 'node:assert/strict';
import { isCredentialFile } from '../../../../src/core/workspace/credentialFiles';

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
  ];
  const ordinary = [
    '.env.example', '.env.sample', '.env.template', '.env.dist', 'id_rsa.pub', 'src/credentials.ts', 'docs/credentials.md', 'keyboard.ts',
    'keys.json', 'README.md', 'environment.ts', 'src/env.ts', '.envoy', 'monkey', 'package.json', '.npmrc.md', 'pem', 'key', 'x.npmrc', 'env',
    '.env-example', 'id_ed25519.pub', '.ssh/id_rsa.pub', 'src/docker/config.json', 'config/kube/config', 'hosts.yml', '.yarnrc.md', 'src/ssh/client.ts',
    '.env.example.bak', 'notes.bak', 'README.md~', 'kubeconfig.ts', '.ssh/id_rsa.pub.bak',
  ];
  for (const path of credentials) it(`holds credentials by its name: ${path}`, () => assert.equal(isCredentialFile(path), true));
  for (const path of ordinary) it(`is an ordinary file: ${path}`, () => assert.equal(isCredentialFile(path), false));
});
