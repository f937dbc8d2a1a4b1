import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer, type FakeRequest } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const allText = (request: FakeRequest | undefined): string =>
  (request?.body?.messages ?? []).map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content))).join('\n');

/** A test script that is red until calc.js adds correctly. */
const checkScript = `const { add } = require('./calc.js');
const got = add(2, 2);
if (got !== 4) { console.error('add(2, 2) returned ' + got + ', expected 4'); process.exit(1); }
console.log('1 passing');
`;

describe('task-planner run: step checks', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-checks-');
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    writeFileSync(join(workspace.path, 'check.js'), checkScript);
    writeFileSync(join(workspace.path, 'calc.js'), 'exports.add = (a, b) => a - b;\n');
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  const planFile = (checks: unknown[], patch: Record<string, unknown> = {}): string => {
    const file = join(workspace.path, 'fix.plan.json');
    const plan = {
      objective: 'Fix add in calc.js',
      agents: { coder: { prompt: 'You fix code in the workspace.', tools: ['read_file', 'write_file'] } },
      steps: [{ id: 'S1', title: 'Fix add', kind: 'agent', agent: 'coder', dependsOn: [], input: 'Make add in calc.js add its arguments.', checks, onVerificationFailure: 'retry', maxAttempts: 2, ...patch }],
    };
    writeFileSync(file, JSON.stringify(plan));
    return file;
  };

  it('a step whose command check fails is retried with the diagnosis, then passes; the output shows both attempts', async () => {
    server.enqueue(
      // Attempt 1: a wrong fix, so `node check.js` stays red.
      { kind: 'message', toolCalls: [{ name: 'write_file', arguments: { path: 'calc.js', content: 'exports.add = (a, b) => a + b + 1;\n' } }] },
      { kind: 'message', content: 'Fixed add.' },
      // Attempt 2, told what the check found.
      { kind: 'message', toolCalls: [{ name: 'write_file', arguments: { path: 'calc.js', content: 'exports.add = (a, b) => a + b;\n' } }] },
      { kind: 'message', content: 'Fixed add for real.' },
    );
    const file = planFile([{ kind: 'command', argv: [process.execPath, 'check.js'] }]);
    const { code, stdout, stderr } = await runCli(['run', file, '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'gpt-4o-mini', '--yes']);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /This plan runs these commands to check its work:\n {2}\S+ check\.js \(in the workspace folder\)\nAny other command asks you when it runs\.\nAllow them for this run\? Yes \(--yes\)\./);
    assert.match(stderr, /≠ S1 Fix add failed verification: Check 1 \(command `\S+ check\.js`\) failed: exit code 1, expected 0; last output: add\(2, 2\) returned 5, expected 4/);
    assert.match(stderr, /▶ S1 Fix add \(attempt 2\)/);
    assert.match(stdout, /Run \S+ completed in [\d.]+ s: 1 of 1 step completed; 1 file changed;[^\n]*\nSteps:\n {2}✔ S1 Fix add: after 2 attempts: Fixed add for real\. · changed calc\.js\n {6}attempt 1 failed: Check 1 \(command `\S+ check\.js`\) failed: exit code 1, expected 0; last output: add\(2, 2\) returned 5, expected 4\n/);
    assert.equal(readFileSync(join(workspace.path, 'calc.js'), 'utf8'), 'exports.add = (a, b) => a + b;\n');

    const requests = server.chatRequests;
    assert.equal(requests.length, 4);
    assert.doesNotMatch(allText(requests[0]), /failed verification/);
    assert.match(allText(requests[2]), /Your previous attempt failed verification: Check 1 \(command `\S+ check\.js`\) failed: exit code 1, expected 0; last output: add\(2, 2\) returned 5, expected 4/);
  });

  it('without a terminal or --yes, check commands are not allowed and their checks fail saying how to allow them', async () => {
    server.enqueue({ kind: 'message', content: 'Nothing to do.' });
    const file = planFile([{ kind: 'command', argv: [process.execPath, 'check.js'] }], { maxAttempts: 1 });
    const { code, stdout, stderr } = await runCli(['run', file, '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'gpt-4o-mini']);
    assert.equal(code, 1, stderr);
    assert.match(stderr, /Allow them for this run\? No: there is no terminal to ask, so their checks will fail as not allowed\. Run with --yes to allow them\./);
    assert.match(stdout, /S1: Check 1 \(command `\S+ check\.js`\) failed: not allowed: the check commands were declined when the run started/);
  });

  it('no_new_diagnostics is not available in the command line: the check fails, it never passes', async () => {
    server.enqueue({ kind: 'message', content: 'Nothing to do.' });
    const file = planFile([{ kind: 'no_new_diagnostics', paths: ['calc.js'] }], { maxAttempts: 1 });
    const { code, stdout, stderr } = await runCli(['run', file, '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'gpt-4o-mini', '--yes']);
    assert.equal(code, 1, stderr);
    assert.match(stdout, /S1: Check 1 \(no new errors in `calc\.js`\) failed: not available in the command line \(it needs the editor's diagnostics\), so it did not pass/);
  });

  it('a malformed check in a plan file is dropped with a warning naming the step and what was wrong', async () => {
    const file = planFile([{ kind: 'file_exists' }, { kind: 'teleport', path: 'x' }, { kind: 'file_exists', path: 'calc.js' }], { kind: 'tool', tool: 'read_file', args: { path: 'calc.js' }, agent: undefined });
    const { code, stdout } = await runCli(['validate', file]);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /Step "S1": check 1 was dropped: path: Invalid input: expected string, received undefined\./);
    assert.match(stdout, /Step "S1": check 2 was dropped: its kind teleport is not one of file_exists, file_absent, file_contains, command, no_new_diagnostics\./);
  });
});
