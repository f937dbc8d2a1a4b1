import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellWord } from '../../../src/cli/shellWord';

describe('shellWord', () => {
  it('keeps a word no shell acts on as it is', () => {
    for (const word of ['20261203-165424-4a0905', 'W@40fb096a93e7', '/tmp/tp-x/ws', 'gpt-4.1', 'http://127.0.0.1:8080/v1', 'a=b', '50%']) {
      assert.equal(shellWord(word), word);
    }
  });

  // An outside attack (2026-12-03): a model's step id `q;$(touch pwned)#` in the printed resume command ran when pasted.
  it('attack: quotes anything else so that bash takes it as one word and runs nothing in it', () => {
    const folder = mkdtempSync(join(tmpdir(), 'tp-shellword-'));
    try {
      const hostile = [`q;$(touch ${folder}/a)#`, `\`touch ${folder}/b\``, "it's $HOME", 'two words', 'a\nb', '"quoted"', "'", '', `x' ; touch ${folder}/c ; '`];
      for (const value of hostile) {
        const echoed = execFileSync('bash', ['-c', `printf '%s' ${shellWord(value, 'linux')}`], { encoding: 'utf8' });
        assert.equal(echoed, value, shellWord(value, 'linux'));
      }
      assert.deepEqual(readdirSync(folder), [], 'nothing in the words ran');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('quotes for PowerShell on Windows, a single quote doubled', () => {
    assert.equal(shellWord("it's $(x)", 'win32'), "'it''s $(x)'");
    assert.equal(shellWord("it's $(x)", 'linux'), "'it'\\''s $(x)'");
  });
});
