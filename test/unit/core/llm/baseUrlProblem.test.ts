import assert from 'node:assert/strict';
import { baseUrlProblem } from '../../../../src/core/llm/baseUrlProblem';

describe('baseUrlProblem', () => {
  const withKey = { sendsKey: true, allowHint: 'pass --allow-insecure-key' };

  it('accepts https anywhere and plain http to this machine, with a key', () => {
    for (const url of ['https://api.openai.com/v1', 'http://127.0.0.1:11434/v1', 'http://localhost:1234/v1', 'http://[::1]:8000/v1']) assert.equal(baseUrlProblem(url, withKey), undefined, url);
  });

  it('refuses to send a key over plain http to another machine unless the user insists', () => {
    const problem = baseUrlProblem('http://10.0.0.5:8000/v1', withKey);
    assert.match(problem ?? '', /plain http:\/\/ to another machine.*unencrypted.*pass --allow-insecure-key/);
    assert.equal(baseUrlProblem('http://10.0.0.5:8000/v1', { ...withKey, allowInsecureKey: true }), undefined);
    assert.equal(baseUrlProblem('http://10.0.0.5:8000/v1', { sendsKey: false, allowHint: '' }), undefined, 'no key, nothing to leak');
  });

  it('refuses credentials in the URL without showing them, and says what else is wrong', () => {
    const problem = baseUrlProblem('https://alice:s3cretpassw0rd@api.example.com/v1', withKey) ?? '';
    assert.match(problem, /user name or password/);
    assert.ok(!problem.includes('s3cretpassw0rd') && !problem.includes('alice'), problem);
    assert.match(baseUrlProblem('not a url', withKey) ?? '', /not a valid URL/);
    assert.match(baseUrlProblem('ftp://example.com/v1', withKey) ?? '', /must start with https:\/\//);
  });

  it('attack: refuses a credential in the query (it was printed in the commands a run prints to resume it) without showing it, not other parameters', () => {
    for (const url of ['https://proxy.example.com/v1?api-key=sk-live-0123456789', 'https://proxy.example.com/v1?api-version=1&KEY=sk-live-0123456789', 'http://127.0.0.1:8000/v1?token=sk-live-0123456789']) {
      const problem = baseUrlProblem(url, { sendsKey: false, allowHint: '' }) ?? '';
      assert.match(problem, /holds a credential in its query \((api-key|KEY|token)=…\).*give the key as the API key/, url);
      assert.ok(!problem.includes('0123456789'), problem);
    }
    assert.equal(baseUrlProblem('https://example.openai.azure.com/openai/v1?api-version=preview', withKey), undefined);
    assert.equal(baseUrlProblem('https://proxy.example.com/v1?keyring=main', withKey), undefined, 'a name that only starts like one');
  });

  it('refuses a user name alone or a password alone, and reads an address with spaces around it', () => {
    assert.match(baseUrlProblem('https://alice@api.example.com/v1', withKey) ?? '', /user name or password/);
    assert.match(baseUrlProblem('https://:pw@api.example.com/v1', withKey) ?? '', /user name or password/);
    assert.equal(baseUrlProblem('  https://api.example.com/v1 \n', withKey), undefined);
    assert.match(baseUrlProblem(' ftp://example.com ', withKey) ?? '', /^The base URL "ftp:\/\/example\.com" must start/);
  });
});
