import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe('task-planner run: cached prompt tokens', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-cached-');
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  it('shows the cached tokens the provider reported and what they saved, in the closing summary and the journal', async () => {
    const plan = join(workspace.path, 'two.plan.json');
    writeFileSync(plan, JSON.stringify({
      objective: 'Summarise',
      steps: [
        { id: 'S1', title: 'Summarise', kind: 'agent', agent: 'direct', input: 'Summarise the project' },
        { id: 'S2', title: 'Shorten', kind: 'agent', agent: 'direct', dependsOn: ['S1'], input: 'Shorten it' },
      ],
    }));
    server.enqueue(
      { kind: 'message', content: 'A summary.', usage: { prompt_tokens: 2_000, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 1_024 } } },
      { kind: 'message', content: 'Short.', usage: { prompt_tokens: 2_100, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 1_920 } } },
    );
    const { code, stdout, stderr } = await runCli(['run', plan, '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'gpt-4o-mini']);
    assert.equal(code, 0, stderr + stdout);
    // gpt-4o-mini: $0.15 per million input tokens, $0.075 cached: 2,944 cached tokens save $0.00022.
    assert.match(stdout + stderr, /4,120 tokens \(2,944 cached\), \$0\.\d+ \(saved \$0\.00022 by cached input\)/);
    assert.ok(server.chatRequests.every((request) => request.body?.stream === true), 'the counts came from streamed replies');
    const runs = join(workspace.path, '.task-planner', 'runs');
    const journal = readdirSync(runs).find((name) => name.endsWith('.jsonl'));
    const calls = readFileSync(join(runs, journal ?? 'missing'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"model_called"'))
      .map((line) => JSON.parse(line) as { cachedTokens?: number; savedUsd?: number });
    assert.deepEqual(calls.map((call) => call.cachedTokens), [1_024, 1_920]);
    assert.ok(calls.every((call) => (call.savedUsd ?? 0) > 0));
  });
});
