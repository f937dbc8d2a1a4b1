import assert from 'node:assert/strict';
import { createRedactor, minRedactedRun, redactUrl } from '../../../../src/core/llm/redactSecrets';

describe('createRedactor', () => {
  const key = 'sk-live-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123';
  const redact = createRedactor([key]);

  it('redacts the whole key, a 13-character prefix, an 8-character middle run and a suffix', () => {
    assert.equal(redact(`key ${key} end`), 'key [redacted] end');
    assert.equal(redact(`Incorrect API key provided: ${key.slice(0, 13)}*****`), 'Incorrect API key provided: [redacted]*****');
    assert.equal(redact(`…${key.slice(10, 10 + minRedactedRun)}…`), '…[redacted]…');
    assert.equal(redact(`tail=${key.slice(-9)}`), 'tail=[redacted]');
    assert.equal(redact(`two ${key.slice(0, 9)} and ${key.slice(20)}.`), 'two [redacted] and [redacted].');
  });

  it('leaves runs shorter than 8 characters and unrelated text alone', () => {
    const text = `sk-live is a prefix of 7, and ${key.slice(5, 12)} is 7 characters; nothing else here.`;
    assert.equal(redact(text), text);
    assert.equal(redact(''), '');
  });

  it('redacts short secrets whole and the credentials of every URL', () => {
    assert.equal(createRedactor(['abcde'])('x abcde y'), 'x [redacted] y');
    assert.equal(redact('fetch http://alice:s3cret@10.0.0.1:8080/v1/chat failed; see https://bob@example.com/'), 'fetch http://[redacted]@10.0.0.1:8080/v1/chat failed; see https://[redacted]@example.com/');
    assert.equal(redactUrl('https://user:pass@api.example.com/v1'), 'https://[redacted]@api.example.com/v1');
    assert.equal(redactUrl('https://api.example.com/v1?to=a@b'), 'https://api.example.com/v1?to=a@b');
  });

  it('attack: redacts a credential in a URL query (a base URL with ?api-key= named in an error)', () => {
    assert.equal(redactUrl('http://10.9.9.9/v1?api-key=QUERYSECRET-0123456789'), 'http://10.9.9.9/v1?api-key=[redacted]');
    assert.equal(redactUrl('https://x.example.com/v1?region=eu&token=abc&sig=AbC%2Bd#frag'), 'https://x.example.com/v1?region=eu&token=[redacted]&sig=[redacted]#frag');
    assert.equal(redact('cannot reach http://10.9.9.9/v1?Access_Token=zzz after 30 s'), 'cannot reach http://10.9.9.9/v1?Access_Token=[redacted] after 30 s');
    assert.equal(redactUrl('https://api.example.com/v1?keyword=plain&monkey=1'), 'https://api.example.com/v1?keyword=plain&monkey=1');
  });

  it('stays linear on a large text full of secret characters', () => {
    const text = `${'ABCDEFG-'.repeat(250_000)}${key}`;
    // Linear time is proved statically (ESLint's regexp rules); a super-linear pattern would exceed the test's time-out here.
    const redacted = redact(text);
    assert.equal(redacted, 'ABCDEFG[redacted]-[redacted]');
  });
});

describe('createRedactor: the edges of a secret', () => {
  const key = 'sk-live-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123';
  const redact = createRedactor([key]);

  it('redacts a text that starts with the secret or a run of it, and a later run too', () => {
    assert.equal(redact(key), '[redacted]');
    assert.equal(redact(`${key.slice(0, 9)} and ${key.slice(20)}.`), '[redacted] and [redacted].');
  });

  it('redacts runs that touch as one', () => {
    assert.equal(redact(`${key.slice(0, 8)}${key.slice(20, 28)}!`), '[redacted]!');
    assert.equal(createRedactor(['12345678'])('x 1234567812345678 y'), 'x [redacted] y');
  });

  it('redacts a secret of 4 characters whole, and never one of 3 (it would hide ordinary text)', () => {
    assert.equal(createRedactor(['abcd'])('x abcd y'), 'x [redacted] y');
    assert.equal(createRedactor(['abc'])('x abc y'), 'x abc y');
  });

  it('redacts any 8-character run of a long secret, whichever secret of several it belongs to', () => {
    const redactBoth = createRedactor(['short-one', 'zyxwvutsrqponmlkjihgfedcba']);
    assert.equal(redactBoth('echo: srqponml and rt-on'), 'echo: [redacted] and rt-on');
  });
});
