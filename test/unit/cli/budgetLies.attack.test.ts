import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer, matchers } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

// Attacks as a hostile model server on `run`'s budget limits: its word about usage, and failing calls.
describe('attack: a hostile server on the command line budget', function () {
  this.timeout(90_000);
  const workspace = temporaryDirectory('atk-budget-');
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
    const steps = Array.from({ length: 8 }, (_, index) => ({ id: `S${index + 1}`, title: `Work ${index}`, kind: 'agent', dependsOn: index ? [`S${index}`] : [], input: 'work' }));
    writeFileSync(join(workspace.path, 'p.plan.json'), JSON.stringify({ objective: 'o', steps }));
    const retried = [{ id: 'S1', title: 'Work', kind: 'agent', dependsOn: [], input: 'work', maxAttempts: 3 }];
    writeFileSync(join(workspace.path, 'retried.plan.json'), JSON.stringify({ objective: 'o', steps: retried }));
  });
  afterEach(() => server.close());
  const run = (...limits: string[]) =>
    runCli(['run', join(workspace.path, limits.includes('--max-requests') ? 'retried.plan.json' : 'p.plan.json'), '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'm', '--json', ...limits]);
  const answer = (usage: unknown) => ({
    kind: 'events' as const,
    events: [
      { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: `done ${'A'.repeat(4_000)}` }, finish_reason: 'stop' }] },
      { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage },
    ],
  });

  it('usage reported negative, missing or not a number does not lift --max-tokens', async () => {
    for (const usage of [{ prompt_tokens: -1_000_000, completion_tokens: 5 }, { completion_tokens: 5 }, { prompt_tokens: 'many', completion_tokens: 5 }, { prompt_tokens: 0, completion_tokens: 0 }]) {
      server.reset();
      server.on(matchers.any(), answer(usage));
      const { stdout, stderr } = await run('--max-tokens', '3000');
      const result = JSON.parse(stdout) as { status: string };
      assert.equal(result.status, 'waiting', `${JSON.stringify(usage)}: ${stderr}`);
      assert.ok(server.chatRequests.length < 8, `${JSON.stringify(usage)}: ${server.chatRequests.length} requests under a 3000-token limit`);
      assert.doesNotMatch(stderr, /NaN|-\d+ tokens/, JSON.stringify(usage));
    }
  });

  it('calls that fail after streaming part of a reply count against --max-requests', async () => {
    server.on(matchers.any(), { kind: 'events', events: [{ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'B'.repeat(10_000) } }] }], cut: true });
    const { stdout, stderr } = await run('--max-requests', '2');
    // Nor may one call's own attempts cross the limit: its client asks the budget before each retry (4 attempts before).
    assert.equal(server.chatRequests.length, 2, `${server.chatRequests.length} requests under --max-requests 2:\n${stderr}`);
    assert.equal((JSON.parse(stdout) as { status: string }).status, 'waiting', stderr);
    assert.match(stderr, /Used 2 model requests/);
  });
});
