import assert from 'node:assert/strict';
import { toolCallChecks, workChecks } from '../../../../src/core/planner/heuristicChecks';

describe('toolCallChecks', () => {
  it('checks that a written file exists and a deleted file is gone', () => {
    assert.deepEqual(toolCallChecks({ tool: 'write_file', args: { path: 'src/index.ts', content: '' } }), [{ kind: 'file_exists', path: 'src/index.ts' }]);
    assert.deepEqual(toolCallChecks({ tool: 'delete_file', args: { path: 'old.log' } }), [{ kind: 'file_absent', path: 'old.log' }]);
  });

  it('checks that a file written with a short line given by the step holds it, and any longer text by the file alone', () => {
    assert.deepEqual(toolCallChecks({ tool: 'write_file', args: { path: 'hello.txt', content: 'hello\n' } }), [{ kind: 'file_contains', path: 'hello.txt', text: 'hello' }]);
    assert.deepEqual(toolCallChecks({ tool: 'write_file', args: { path: 'a.txt', content: 'one\ntwo\n' } }), [{ kind: 'file_exists', path: 'a.txt' }]);
    assert.deepEqual(toolCallChecks({ tool: 'write_file', args: { path: 'a.txt', content: 'x'.repeat(201) } }), [{ kind: 'file_exists', path: 'a.txt' }]);
  });

  it('adds nothing to reads, listings, searches, folders and commands (a command\'s exit code is already its result)', () => {
    assert.deepEqual(toolCallChecks({ tool: 'read_file', args: { path: 'a.ts' } }), []);
    assert.deepEqual(toolCallChecks({ tool: 'list_files', args: { glob: 'src/**' } }), []);
    assert.deepEqual(toolCallChecks({ tool: 'search_text', args: { query: 'TODO' } }), []);
    assert.deepEqual(toolCallChecks({ tool: 'create_directory', args: { path: 'docs' } }), []);
    assert.deepEqual(toolCallChecks({ tool: 'run_command', args: { argv: ['npm', 'test'] } }), []);
    assert.deepEqual(toolCallChecks({ tool: 'write_file', args: { content: 'no path' } }), []);
  });
  it('adds no check for a path out of the workspace (its validation would refuse the whole plan; the tool refuses the call)', () => {
    for (const path of ['../api/CHANGELOG.md', '/etc/passwd', 'C:\\Windows\\x', '~/.ssh/id_rsa', 'a/../../b']) {
      assert.deepEqual(toolCallChecks({ tool: 'delete_file', args: { path } }), [], path);
      assert.deepEqual(toolCallChecks({ tool: 'write_file', args: { path, content: '' } }), [], path);
    }
  });
});

describe('workChecks', () => {
  it('checks that a file the step creates exists', () => {
    assert.deepEqual(workChecks('create a file notes.md with a todo list'), [{ kind: 'file_exists', path: 'notes.md' }]);
    assert.deepEqual(workChecks('Create src/routes/health.ts with a GET /health endpoint.'), [{ kind: 'file_exists', path: 'src/routes/health.ts' }]);
    assert.deepEqual(workChecks('Please write a new file called ./docs/intro.md'), [{ kind: 'file_exists', path: 'docs/intro.md' }]);
    assert.deepEqual(workChecks('Add a LICENSE file for MIT'), [{ kind: 'file_exists', path: 'LICENSE' }]);
    assert.deepEqual(workChecks('Create .env from it'), [{ kind: 'file_exists', path: '.env' }]);
    assert.deepEqual(workChecks('Generate `out/report.json`'), [{ kind: 'file_exists', path: 'out/report.json' }]);
  });

  it('checks the text a created file holds when the request quotes it', () => {
    assert.deepEqual(workChecks('Create a file notes.md containing "hello world"'), [{ kind: 'file_contains', path: 'notes.md', text: 'hello world' }]);
    assert.deepEqual(workChecks("Make hello.txt with the text 'Hi there'"), [{ kind: 'file_contains', path: 'hello.txt', text: 'Hi there' }]);
    assert.deepEqual(workChecks('Add VERSION.txt that says `1.2.3`'), [{ kind: 'file_contains', path: 'VERSION.txt', text: '1.2.3' }]);
    assert.deepEqual(workChecks('Create a.md with content "x" and more'), [{ kind: 'file_exists', path: 'a.md' }], 'only a quote that ends the request is the content');
  });

  it('puts a file added to a named folder in that folder, and gives up on "it"', () => {
    assert.deepEqual(workChecks('Add index.ts to src/'), [{ kind: 'file_exists', path: 'src/index.ts' }]);
    assert.deepEqual(workChecks('Add notes.md to the docs folder'), [{ kind: 'file_exists', path: 'docs/notes.md' }]);
    assert.deepEqual(workChecks('add an index.md to it'), []);
    assert.deepEqual(workChecks('Add docs/a.md to src'), [], 'a path with a folder of its own is not put into another');
    assert.deepEqual(workChecks('Add b.ts to tsconfig.json'), [], 'a file is not a folder');
    assert.deepEqual(workChecks('Add c.ts to ../outside'), []);
  });

  it('checks a file the step saves', () => {
    assert.deepEqual(workChecks('Translate README.md into French and save it as README.fr.md'), [{ kind: 'file_exists', path: 'README.fr.md' }]);
    assert.deepEqual(workChecks('Write the summary to docs/summary.md'), [{ kind: 'file_exists', path: 'docs/summary.md' }]);
    assert.deepEqual(workChecks('Summarise the logs and export the table into report.csv'), [{ kind: 'file_exists', path: 'report.csv' }]);
    assert.deepEqual(workChecks('Save it to docs/'), [], 'a folder is not a file');
  });

  it('checks both ends of a rename or move', () => {
    assert.deepEqual(workChecks('Rename src/old.ts to src/new.ts'), [{ kind: 'file_absent', path: 'src/old.ts' }, { kind: 'file_exists', path: 'src/new.ts' }]);
    assert.deepEqual(workChecks('Move the file a.ts into lib/'), [{ kind: 'file_absent', path: 'a.ts' }, { kind: 'file_exists', path: 'lib/a.ts' }]);
    assert.deepEqual(workChecks('mv src/x/y.ts to z/'), [{ kind: 'file_absent', path: 'src/x/y.ts' }, { kind: 'file_exists', path: 'z/y.ts' }]);
    assert.deepEqual(workChecks('Rename a.ts to a.ts'), []);
    assert.deepEqual(workChecks('Move the helpers from utils.js into lib/helpers.js'), []);
    assert.deepEqual(workChecks('Rename getUser to fetchUser'), []);
    assert.deepEqual(workChecks('Rename a.ts to /etc/passwd'), []);
  });

  it('checks that a folder or file the step deletes is gone', () => {
    assert.deepEqual(workChecks('Delete the dist folder'), [{ kind: 'file_absent', path: 'dist' }]);
    assert.deepEqual(workChecks('Delete src/legacy/ entirely'), [{ kind: 'file_absent', path: 'src/legacy' }]);
    assert.deepEqual(workChecks('Remove the directory build/tmp'), [{ kind: 'file_absent', path: 'build/tmp' }]);
    assert.deepEqual(workChecks('rm -rf coverage/'), [{ kind: 'file_absent', path: 'coverage' }]);
    assert.deepEqual(workChecks('Delete notes.md'), [{ kind: 'file_absent', path: 'notes.md' }]);
  });

  it('adds nothing where the request names no file or is not plainly a create, save, move or delete', () => {
    for (const text of [
      'remove it',
      'Remove the deprecated flag from the CLI',
      'Remove console.log statements from src/app.js',
      'Add a README section',
      'Add a function slugify to src/util.js with tests',
      'Add `lodash` to the dependencies',
      'Fix the login bug in src/auth/login.ts',
      'Write a poem about the codebase',
      'Update .gitignore to ignore coverage/',
      'Delete /etc/passwd',
      'Delete ../secrets.txt',
      'Create ~/notes.md',
      'Create a folder called src in docs',
      'Delete the folder ../up',
    ]) {
      assert.deepEqual(workChecks(text), [], text);
    }
  });
});

describe('workChecks on hostile text', () => {
  // Linear time is proved statically (ESLint's regexp rules); a super-linear pattern would exceed the test's time-out here.
  it('reads a megabyte of repeated verbs, articles and places', () => {
    const texts = ['save '.repeat(200_000), `create ${'a '.repeat(300_000)}x.md`, `Create x.md${' to'.repeat(300_000)}`, `delete ${'old '.repeat(300_000)}`, `Create x.md${' in'.repeat(300_000)} docs`];
    const created = [{ kind: 'file_exists', path: 'x.md' }];
    assert.deepEqual(texts.map((text) => workChecks(text)), [[], created, created, [], created]);
  });

  it('adds no check when a path the text names leaves the workspace', () => {
    assert.deepEqual(workChecks('create ../api/notes.md with a todo list'), []);
    assert.deepEqual(workChecks('rename notes.md to ../api/notes.md'), []);
    assert.deepEqual(workChecks('delete /tmp/cache'), []);
  });
});
