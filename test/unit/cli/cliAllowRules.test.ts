import assert from 'node:assert/strict';
import { cliAllowList, parseAllowRule } from '../../../src/cli/cliAllowRules';
import { UsageError } from '../../../src/cli/cliIo';

describe('cliAllowRules: --allow-command and the action\'s allow-commands', () => {
  it('reads words split on white space, or a JSON array of words', () => {
    assert.deepEqual(parseAllowRule('  npm   run lint ... '), ['npm', 'run', 'lint', '...']);
    assert.deepEqual(parseAllowRule('["git", "commit", "-m", "a b"]'), ['git', 'commit', '-m', 'a b']);
  });

  it('refuses a rule that would allow any code, an empty one, and a malformed array, naming it', () => {
    assert.throws(() => parseAllowRule('bash -c'), (error: unknown) => error instanceof UsageError && /"bash -c" would let bash run any code/.test(error.message));
    assert.throws(() => parseAllowRule('sudo make install'), /runs whatever command follows it/);
    assert.throws(() => parseAllowRule('   '), /an empty rule would allow every command/);
    assert.throws(() => parseAllowRule('["npm", 1]'), /must be a JSON array of strings/);
    assert.throws(() => parseAllowRule('["npm"'), /is not a JSON array of words/);
  });

  it('an allow list only when rules are given', () => {
    assert.equal(cliAllowList(undefined), undefined);
    assert.equal(cliAllowList([]), undefined);
    assert.deepEqual(cliAllowList(['npm test'])?.rules(), [['npm', 'test']]);
  });
});
