import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe('task-planner run --review-critical-steps', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-review-');
  let server: FakeOpenAiServer;
  let plan: string;
  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
    plan = join(workspace.path, 'summary.plan.json');
    writeFileSync(plan, JSON.stringify({ objective: 'Summarise', steps: [{ id: 'S1', title: 'Summarise', kind: 'agent', agent: 'direct', input: 'Summarise the project' }] }));
  });
  afterEach(() => server.close());

  const run = (...flags: string[]) =>
    runCli(['run', plan, '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'gpt-4o-mini', '--json', ...flags]);

  it('reviews a critical agent step with one more model call only when asked, and a failing review fails the step with its diagnosis', async () => {
    server.enqueue({ kind: 'message', content: 'A summary.' }, { kind: 'message', content: '{"verdict": "fail", "diagnosis": "It names no file."}' });
    const reviewed = await run('--review-critical-steps');
    assert.equal(reviewed.code, 1, reviewed.stderr);
    const result = JSON.parse(reviewed.stdout) as { status: string; steps: Record<string, { status: string; error?: string }> };
    assert.equal(result.steps['S1']?.status, 'failed');
    assert.equal(result.steps['S1']?.error, 'The review found the result wanting: It names no file.');
    assert.equal(server.chatRequests.length, 2);
    assert.equal(server.chatRequests[1]?.body?.response_format?.type, 'json_schema');

    server.enqueue({ kind: 'message', content: 'A summary.' });
    const plain = await run();
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal((JSON.parse(plain.stdout) as { status: string }).status, 'completed');
    assert.equal(server.chatRequests.length, 3, 'no review call without the flag');
  });
});
