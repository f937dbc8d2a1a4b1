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

  it('refuses a user name alone or a password alone, and reads an address with spaces around it', () => {
    assert.match(baseUrlProblem('https://alice@api.example.com/v1', withKey) ?? '', /user name or password/);
    assert.match(baseUrlProblem('https://:pw@api.example.com/v1', withKey) ?? '', /user name or password/);
    assert.equal(baseUrlProblem('  https://api.example.com/v1 \n', withKey), undefined);
    assert.match(baseUrlProblem(' ftp://example.com ', withKey) ?? '', /^The base URL "ftp:\/\/example\.com" must start/);
  });
});
