import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';
import { FakeOpenAiServer } from '../../fakes/fakeOpenAiServer';

const plan = {
  objective: 'x',
  steps: [{ id: 'S1', title: 'Add the license', kind: 'agent', input: 'Add LICENSE', dependsOn: [], basedOn: ['README.md'] }],
};

describe('task-planner plan: investigation and questions before the plan', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-investigate-');
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    writeFileSync(join(workspace.path, 'README.md'), '# Demo\n');
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  it('names what is read, takes --answer for a question, and the plan records what it is based on', async () => {
    server.enqueue(
      { kind: 'message', toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }, { name: 'search_text', arguments: { query: 'license' } }] },
      { kind: 'message', toolCalls: [{ name: 'ask_user', arguments: { question: 'Which \u001b[31mlicense\u001b[0m?', suggestions: ['MIT', 'Apache-2.0'] } }] },
      { kind: 'message', content: JSON.stringify(plan) },
    );
    const { code, stdout, stderr } = await runCli(
      ['plan', 'Add a license', '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'm', '--answer', 'Q1=Apache-2.0', '--json'],
      {},
    );
    assert.equal(code, 0, stderr);
    assert.match(stderr, /reading README\.md/);
    assert.match(stderr, /searching for "license"/);
    assert.match(stderr, /The planner asks \(Q1\): Which .*license.*\?\n {2}suggestions: 1\) MIT {2}2\) Apache-2\.0\n {2}answered with --answer Q1: Apache-2\.0/);
    assert.ok(!stderr.includes('\u001b'), 'no escape sequence reaches the terminal');
    assert.match(stderr, /Based on: 1 file read \(README\.md\), 1 search \("license"\)/);
    assert.match(stderr, /based on: README\.md/);
    const output = JSON.parse(stdout) as { plan: { basis: unknown; steps: { basedOn?: string[] }[] } };
    assert.deepEqual(output.plan.basis, {
      files: ['README.md'],
      searches: ['license'],
      answers: [{ question: 'Which \\u001b[31mlicense\\u001b[0m?', answer: 'Apache-2.0' }],
    });
    const offered = (server.chatRequests[0]?.body?.tools ?? []).map((tool) => tool.function.name);
    assert.deepEqual(offered, ['read_file', 'list_files', 'search_text', 'ask_user']);
    assert.match(JSON.stringify(server.chatRequests[2]?.body?.messages), /Apache-2\.0/, 'the answer reaches the model before the plan');
  });

  it('--investigate-calls 0 plans without looking; a bad budget is a usage error', async () => {
    server.enqueue({ kind: 'message', content: JSON.stringify(plan) });
    const none = await runCli(['plan', 'Add a license', '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'm', '--investigate-calls', '0'], {});
    assert.equal(none.code, 0, none.stderr);
    assert.equal(server.chatRequests.length, 1);
    assert.equal(server.chatRequests[0]?.body?.tools, undefined);
    const bad = await runCli(['plan', 'x', '--workspace', workspace.path, '--investigate-seconds', 'soon'], {});
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--investigate-seconds must be a whole number from 0 to 3600/);
  });

  it('without a terminal or an answer, the question is left to the model and said so', async () => {
    server.enqueue(
      { kind: 'message', toolCalls: [{ name: 'ask_user', arguments: { question: 'Which license?', suggestions: ['MIT'] } }] },
      { kind: 'message', content: JSON.stringify(plan) },
    );
    const { code, stderr } = await runCli(['plan', 'Add a license', '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'm'], {});
    assert.equal(code, 0, stderr);
    assert.match(stderr, /no answer: the planner chooses \(answer it with --answer Q1=TEXT\)/);
    assert.match(JSON.stringify(server.chatRequests[1]?.body?.messages), /The user gave no answer/);
  });
});
