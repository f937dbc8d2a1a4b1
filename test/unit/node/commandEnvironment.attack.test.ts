import assert from 'node:assert/strict';
import { withoutSecrets } from '../../../src/node/commandEnvironment';

/**
 * Attacks on "No secret reaches a command, an MCP server or a journal through the environment": credentials in
 * well-known shapes that a CI system or a developer's shell puts in the environment, which `withoutSecrets` (the filter
 * of run_command, check commands and stdio MCP servers) passed on. Each is what an approved `env` or `printenv` (or a
 * repository's MCP server, once started) would read and hand to the model, the journal and the screen.
 */
describe('attack: credentials in the environment that withoutSecrets kept', () => {
  const leaks = (name: string, value: string): void => {
    const kept = withoutSecrets({ PATH: '/usr/bin', [name]: value });
    assert.equal(kept.PATH, '/usr/bin');
    assert.equal(kept[name], undefined, `${name}=${JSON.stringify(value.slice(0, 60))} reached the command's environment`);
  };

  it("Jenkins' credentials() binding: DB_PSW (the password of DB = credentials('db'), beside DB_USR)", () => {
    // environment { DB = credentials('prod-db') } sets DB=user:password, DB_USR and DB_PSW (documented Jenkins pipeline syntax).
    leaks('DB_PSW', 'hunter2');
  });

  it('a .netrc line held in a variable (machine … login … password …)', () => {
    leaks('NETRC_CONTENT', 'machine github.com login deploy password hunter2');
  });

  it('an .npmrc line with a legacy (UUID) auth token', () => {
    leaks('NPMRC', '//registry.npmjs.org/:_authToken=1b2c3d4e-5f60-7182-93a4-b5c6d7e8f901');
  });

  it('an Authorization value without the header name (Basic user:password in base64)', () => {
    leaks('REGISTRY_BASIC', 'Basic ZGVwbG95Omh1bnRlcjI=');
  });

  it('a signing keystore as wrapped base64 (what `base64 keystore.jks` prints, 76 characters a line)', () => {
    const line = 'MIIKYgIBAzCCChwGCSqGSIb3DQEHAaCCCg0EggoJMIIKBTCCBbwGCSqGSIb3DQEHAaCCBa0EggWp';
    leaks('ANDROID_KEYSTORE_BASE64', `${line}\n${line.split('').reverse().join('')}\n${line.slice(10)}==`);
  });

  it('keeps their harmless neighbours: a path to a .netrc, a scheme alone, prose naming a login and a password, a registry, a multi-line value of words', () => {
    const env = {
      NETRC: '/home/u/.netrc',
      HTTP_SCHEME: 'Basic',
      npm_config_registry: 'https://registry.npmjs.org/',
      NOTES: 'first line of notes\nsecond line, plain words',
      JAVA_TOOL_OPTIONS: '-Dfile.encoding=UTF-8',
      KEYSTORE_TYPE: 'pkcs12',
      PS1: 'login shell password prompt',
    };
    assert.deepEqual(withoutSecrets(env), env);
  });

  it('held: the same secrets in the shapes the filter knows (a control: each of these must go)', () => {
    leaks('DB_PASSWORD', 'hunter2');
    leaks('NEXUS_CREDS_PSW', 'hunter2');
    leaks('NPM_RC_LINE', '_auth=ZGVwbG95Omh1bnRlcjI=');
    leaks('GIT_LINE', 'https://deploy:hunter2@github.com');
    leaks('HDR', 'Authorization: Basic ZGVwbG95Omh1bnRlcjI=');
    leaks('KEYSTORE_ONE_LINE', 'MIIKYgIBAzCCChwGCSqGSIb3DQEHAaCCCg0EggoJMIIKBTCCBbwGCSqGSIb3DQEHAaCCBa0EggWp');
  });
});
