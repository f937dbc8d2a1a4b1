import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe('task-planner: model roles and the estimate before Start (issue 30)', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-estimate-');
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    writeFileSync(join(workspace.path, 'README.md'), '# Demo\n');
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  it('plans with --planner-model, runs agents on --agent-model, shows the estimate before the run and the use beside it after', async () => {
    const plan = { objective: 'x', steps: [{ id: 'S1', title: 'Summarise the readme', kind: 'agent', agent: 'direct', dependsOn: [], input: 'Summarise README.md' }] };
    server.enqueue({ kind: 'message', content: JSON.stringify(plan) }, { kind: 'message', content: 'A demo project.' });
    const { code, stderr } = await runCli(
      ['plan', 'Summarise the readme', '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'gpt-4o-mini', '--planner-model', 'gpt-4.1', '--agent-model', 'gpt-4.1-nano', '--yes', '--budget-from-estimate'],
      {},
    );
    assert.equal(code, 0, stderr);
    assert.deepEqual(server.chatRequests.map((request) => request.body?.model), ['gpt-4.1', 'gpt-4.1-nano']);
    const estimate = stderr.indexOf('Estimate: 1–2 model requests');
    assert.ok(estimate > 0, stderr);
    assert.match(stderr, / {2}agent steps \(1\): 1–2 requests, [\d.k]+–[\d.k]+ tokens, \$[\d.]+(–\$[\d.]+)?\n/);
    assert.match(stderr, /Budget: the run stops at \$0\.\d\d, the estimate's high end\./);
    const used = stderr.indexOf('Used 1 model request,');
    assert.ok(used > estimate, 'the use is shown after the run, beside the estimate');
    assert.match(stderr.slice(used), /estimated 1–2 requests/);
  });

  it('plan --json holds the estimate and the run\'s own use (planning not counted), so a script compares them', async () => {
    const plan = { objective: 'x', steps: [{ id: 'S1', title: 'Answer', kind: 'agent', agent: 'direct', dependsOn: [], input: 'Say hi' }] };
    server.enqueue(
      { kind: 'message', content: JSON.stringify(plan), usage: { prompt_tokens: 900, completion_tokens: 100 } },
      { kind: 'message', content: 'hi', usage: { prompt_tokens: 70, completion_tokens: 3 } },
    );
    const { code, stdout, stderr } = await runCli(['plan', 'Say hi', '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'llama3:8b', '--yes', '--json'], {});
    assert.equal(code, 0, stderr);
    const output = JSON.parse(stdout) as { estimate?: { tokens: { typical: number } }; usage?: { requests: number; totalTokens: number } };
    assert.ok((output.estimate?.tokens.typical ?? 0) > 0, stdout);
    assert.deepEqual({ requests: output.usage?.requests, totalTokens: output.usage?.totalTokens }, { requests: 1, totalTokens: 73 });
  });

  it('says "cost unknown" for a model without a price, and the budget from the estimate is then in tokens', async () => {
    const plan = { objective: 'x', steps: [{ id: 'S1', title: 'Answer', kind: 'agent', agent: 'direct', dependsOn: [], input: 'Say hi' }] };
    server.enqueue({ kind: 'message', content: JSON.stringify(plan) }, { kind: 'message', content: 'hi' });
    const { code, stderr } = await runCli(['plan', 'Say hi', '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'llama3:8b', '--yes', '--budget-from-estimate'], {});
    assert.equal(code, 0, stderr);
    assert.match(stderr, /cost unknown \(no price for llama3:8b\)/);
    assert.doesNotMatch(stderr, /Estimate:[^\n]*\$0/);
    assert.match(stderr, /Budget: the run stops at [\d.k]+ tokens, the estimate's high end \(the cost is unknown\)\./);
  });

  it('attack: a role model that is an address is refused before anything is sent', async () => {
    const { code, stderr } = await runCli(['plan', 'x', '--workspace', workspace.path, '--base-url', server.baseURL, '--planner-model', 'https://evil.example/v1', '--yes'], {});
    assert.equal(code, 2, stderr);
    assert.match(stderr, /--planner-model: a model name is a name, not an address/);
    assert.equal(server.requests.length, 0);
  });

  it('attack: a plan file whose step names a model that is not set up is refused, naming the models that are', async () => {
    const file = join(workspace.path, 'named.plan.json');
    writeFileSync(file, JSON.stringify({ objective: 'x', steps: [{ id: 'S1', title: 'Work', kind: 'agent', input: 'Work', model: 'gpt-9-ultra' }] }));
    const { code, stderr } = await runCli(['run', file, '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'gpt-4o-mini', '--compaction-model', 'gpt-5-nano', '--yes'], {});
    assert.equal(code, 2, stderr);
    assert.match(stderr, /S1" asks for the model "gpt-9-ultra", which is not set up for this run; set up: "gpt-4o-mini", "gpt-5-nano"/);
    assert.equal(server.requests.length, 0);
  });
});
