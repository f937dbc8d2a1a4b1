import assert from 'node:assert/strict';
import { withoutSecrets } from '../../../src/node/commandEnvironment';

describe('withoutSecrets', () => {
  it('drops variables named like credentials and values shaped like them, keeps the rest', () => {
    const kept = withoutSecrets({
      PATH: '/usr/bin', HOME: '/home/u', LANG: 'C.UTF-8', NODE_ENV: 'test', TERM: 'xterm', KEYBOARD_LAYOUT: 'us',
      OPENAI_API_KEY: 'x', ANTHROPIC_API_KEY: 'x', GITHUB_TOKEN: 'x', NPM_TOKEN: 'x', AWS_SECRET_ACCESS_KEY: 'x', AWS_ACCESS_KEY_ID: 'x',
      AZURE_OPENAI_KEY: 'x', DATABASE_PASSWORD: 'x', PGPASSWORD: 'x', SSH_AUTH_SOCK: '/tmp/agent', SESSION_COOKIE: 'x', HF_TOKEN: 'x',
      GOOGLE_APPLICATION_CREDENTIALS: '/k.json', my_apikey: 'x', PRIVATE_KEY: 'x',
      HARMLESS_1: 'sk-proj-abcdefghijklmnopqrstuv', HARMLESS_2: 'AKIAABCDEFGHIJKLMNOP', HARMLESS_3: 'xoxb-1234567890-abcdef', HARMLESS_4: 'glpat-abcdefghijklmnopqrst',
    });
    assert.deepEqual(Object.keys(kept).sort(), ['HOME', 'KEYBOARD_LAYOUT', 'LANG', 'NODE_ENV', 'PATH', 'TERM']);
  });
});
