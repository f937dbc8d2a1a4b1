import assert from 'node:assert/strict';
import { classifyStepText } from '../../../../src/core/planner/classifyStepText';

describe('classifyStepText', () => {
  it('makes questions and ambiguity clarifications', () => {
    for (const text of ['Which database should we use?', 'Not sure if we need caching', 'Use either Postgres or SQLite', 'Port TBD', 'Ask me for the token']) {
      assert.equal(classifyStepText(text).kind, 'clarification', text);
    }
  });

  it('does not mistake a query string in a URL for a question', () => {
    assert.notEqual(classifyStepText('Read https://x.dev/page?id=1').kind, 'clarification');
  });

  it('turns a command in backticks after a run verb into run_command with argv', () => {
    assert.deepEqual(classifyStepText('Run `npm test -- --grep "login flow"`'), { kind: 'tool', tool: 'run_command', args: { argv: ['npm', 'test', '--', '--grep', 'login flow'] }, flaky: true });
  });

  it('recognizes well-known commands without backticks', () => {
    assert.deepEqual(classifyStepText('Execute npm run build and check the output'), { kind: 'tool', tool: 'run_command', args: { argv: ['npm', 'run', 'build'] }, flaky: true });
    assert.equal(classifyStepText('Run the migration').kind, 'agent');
  });

  it('turns plain file operations into tool calls', () => {
    assert.deepEqual(classifyStepText('Read src/app.ts'), { kind: 'tool', tool: 'read_file', args: { path: 'src/app.ts' }, flaky: false });
    assert.deepEqual(classifyStepText('Delete the file `build/old.js`'), { kind: 'tool', tool: 'delete_file', args: { path: 'build/old.js' }, flaky: false });
    assert.deepEqual(classifyStepText('List files in src/core'), { kind: 'tool', tool: 'list_files', args: { glob: 'src/core/**' }, flaky: false });
    assert.deepEqual(classifyStepText("Search for 'FIXME'"), { kind: 'tool', tool: 'search_text', args: { pattern: 'FIXME' }, flaky: false });
  });

  it('keeps code-level deletions with the coder agent', () => {
    assert.deepEqual(classifyStepText('Remove the unused function in src/a.ts'), { kind: 'agent', agent: 'coder', flaky: false });
  });

  it('routes other work to an agent by its verbs', () => {
    assert.deepEqual(classifyStepText('Write unit tests for the parser'), { kind: 'agent', agent: 'tester', flaky: false });
    assert.deepEqual(classifyStepText('Implement the login form'), { kind: 'agent', agent: 'coder', flaky: false });
    assert.deepEqual(classifyStepText('Summarize the architecture'), { kind: 'agent', agent: 'researcher', flaky: false });
    assert.deepEqual(classifyStepText('Celebrate'), { kind: 'agent', agent: 'default', flaky: false });
  });

  it('marks URLs and network words as flaky', () => {
    assert.equal(classifyStepText('Review https://x.dev/spec').flaky, true);
    assert.equal(classifyStepText('Fetch the latest rates').flaky, true);
  });
});
