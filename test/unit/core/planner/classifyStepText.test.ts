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
    assert.deepEqual(classifyStepText('Run `npm test -- --grep "login flow"`'), { kind: 'tool', calls: [{ tool: 'run_command', args: { argv: ['npm', 'test', '--', '--grep', 'login flow'] } }], inOrder: true, flaky: true });
  });

  it('recognizes well-known commands without backticks, and leaves a task that only says "run" as work', () => {
    assert.deepEqual(classifyStepText('Execute npm run build and check the output'), { kind: 'tool', calls: [{ tool: 'run_command', args: { argv: ['npm', 'run', 'build'] } }], inOrder: true, flaky: true });
    assert.equal(classifyStepText('Run the migration').kind, 'work');
  });

  it('turns plain file operations into tool calls with the exact argument names', () => {
    const call = (text: string) => {
      const classified = classifyStepText(text);
      return classified.kind === 'tool' ? classified.calls : classified.kind;
    };
    assert.deepEqual(call('Read src/app.ts'), [{ tool: 'read_file', args: { path: 'src/app.ts' } }]);
    assert.deepEqual(call('Delete the file `build/old.js`'), [{ tool: 'delete_file', args: { path: 'build/old.js' } }]);
    assert.deepEqual(call('List files in src/core'), [{ tool: 'list_files', args: { glob: 'src/core/**' } }]);
    assert.deepEqual(call("Search for 'FIXME'"), [{ tool: 'search_text', args: { query: 'FIXME' } }]);
    assert.deepEqual(call('Create a directory named docs/api'), [{ tool: 'create_directory', args: { path: 'docs/api' } }]);
  });

  it('keeps code-level deletions as work', () => {
    assert.deepEqual(classifyStepText('Remove the unused function in src/a.ts'), { kind: 'work', agent: 'coder', flaky: false });
  });

  it('routes other work by its verbs (the agent a model would use)', () => {
    assert.deepEqual(classifyStepText('Write unit tests for the parser'), { kind: 'work', agent: 'tester', flaky: false });
    assert.deepEqual(classifyStepText('Implement the login form'), { kind: 'work', agent: 'coder', flaky: false });
    assert.deepEqual(classifyStepText('Summarize the architecture'), { kind: 'work', agent: 'researcher', flaky: false });
    assert.deepEqual(classifyStepText('Celebrate'), { kind: 'work', agent: 'default', flaky: false });
  });

  it('marks URLs and network words as flaky, and never reads a URL as a file', () => {
    assert.deepEqual(classifyStepText('Review https://x.dev/spec'), { kind: 'work', agent: 'researcher', flaky: true });
    assert.equal(classifyStepText('Fetch the latest rates').flaky, true);
    assert.equal(classifyStepText('Read https://x.dev/spec.md').kind, 'work');
  });

  it('takes only a text that ends with a question mark for a question, and never calls a question flaky', () => {
    assert.deepEqual(classifyStepText('Is the cache needed?'), { kind: 'clarification', flaky: false });
    assert.equal(classifyStepText('Add a ? suffix to the title').kind, 'work');
  });

  it('calls only commands flaky among tool calls', () => {
    assert.equal(classifyStepText('Read src/app.ts').flaky, false);
  });

  it('routes testing work to the tester and analysis to the researcher', () => {
    assert.deepEqual(classifyStepText('Add a test for the parser'), { kind: 'work', agent: 'tester', flaky: false });
    assert.deepEqual(classifyStepText('Analyze the logs'), { kind: 'work', agent: 'researcher', flaky: false });
  });

  it('takes a question in any language and a "which" without its mark for a question, but not a request put as one (issue 29)', () => {
    for (const text of ['我们应该使用哪个许可证？', 'Welche Lizenz sollen wir verwenden?', 'which license should we use', '¿Qué licencia usamos?']) {
      assert.equal(classifyStepText(text).kind, 'clarification', text);
    }
    assert.deepEqual(classifyStepText('Can you run `npm test`?'), {
      kind: 'tool',
      calls: [{ tool: 'run_command', args: { argv: ['npm', 'test'] } }],
      inOrder: true,
      flaky: true,
    });
    assert.equal(classifyStepText('Could you add a CHANGELOG entry?').kind, 'work');
    assert.equal(classifyStepText('Run npm test?').kind, 'tool');
  });

  it("reads a command against the project's test command and the step before's paths", () => {
    assert.deepEqual(classifyStepText('Run the tests', { testCommand: ['pytest'] }), {
      kind: 'tool',
      calls: [{ tool: 'run_command', args: { argv: ['pytest'] } }],
      inOrder: true,
      flaky: true,
    });
    assert.equal(classifyStepText('Run the tests').kind, 'work');
    const onIt = classifyStepText('Run mypy on it', { referentPaths: ['src/a.py'] });
    assert.deepEqual(onIt.kind === 'tool' ? onIt.calls : onIt.kind, [{ tool: 'run_command', args: { argv: ['mypy', 'src/a.py'] } }]);
  });
});

describe('classifyStepText: long runs in linear time (ReDoS)', () => {
  it('reads a step padded with spaces (14 s at 50,000 before) as work, and one that ends in a question mark after them as its tool', () => {
    const spaces = ' '.repeat(200_000);
    assert.equal(classifyStepText(`read a.md${spaces}x`).kind, 'work');
    assert.deepEqual(classifyStepText(`read a.md${spaces}?`), { kind: 'tool', calls: [{ tool: 'read_file', args: { path: 'a.md' } }], inOrder: false, flaky: false });
  });
});
