import assert from 'node:assert/strict';
import { isCredentialFile } from '../../../../src/core/workspace/credentialFiles';

describe('isCredentialFile', () => {
  const credentials = [
    '.env', '.env.local', '.env.production', '.env.examples', 'deploy/prod.env', 'config/.ENV', 'app/.env.test', '.envrc', '.npmrc', 'sub/.pypirc', '.netrc', '_netrc', '.git-credentials',
    '.dockercfg', 'credentials', '.aws/credentials', 'credentials.json', 'id_rsa', 'keys/id_ed25519', 'id_ecdsa_sk', 'server.pem', 'tls/server.KEY',
    'store.p12', 'cert.pfx', 'release.jks', 'app.keystore', 'terraform.tfstate', 'terraform.tfstate.backup', 'prod.tfvars', 'prod.tfvars.json',
  ];
  const ordinary = [
    '.env.example', '.env.sample', '.env.template', '.env.dist', 'id_rsa.pub', 'src/credentials.ts', 'docs/credentials.md', 'keyboard.ts',
    'keys.json', 'README.md', 'environment.ts', 'src/env.ts', '.envoy', 'monkey', 'package.json', '.npmrc.md', 'pem', 'key', 'x.npmrc', 'env',
  ];
  for (const path of credentials) it(`holds credentials by its name: ${path}`, () => assert.equal(isCredentialFile(path), true));
  for (const path of ordinary) it(`is an ordinary file: ${path}`, () => assert.equal(isCredentialFile(path), false));
});
