import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { runCli as cli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const plan = join(resolve(__dirname, '../../..'), 'test/fixtures/manual.plan.json');

interface RunJson {
  runId: string;
  status: string;
  results: Record<string, unknown>;
  steps: Record<string, { status: string; error?: string }>;
  pending?: { stepId: string; kind: string; prompt: string }[];
}

describe('task-planner CLI: steps that are yours to do', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-manual-');

  it('without a terminal the run ends waiting on the manual step, with its instructions and how to answer', async () => {
    const first = await cli(['run', plan, '--workspace', workspace.path]);
    assert.equal(first.code, 3, first.stderr);
    assert.match(first.stdout, /notes@[0-9a-f]{12} \(manual\): Step notes is yours to do: Write the release notes\n {4}Write RELEASE\.md from the files listed/);
    assert.match(first.stdout, /--done (notes@[0-9a-f]{12})\nOr instead:\n {2}task-planner resume \S+ --workspace \S+ --failed '\1=why not'$/m);
  });

  it('resume --done STEP=NOTE completes the step with the note; --failed STEP=REASON fails the next one with the reason', async () => {
    const waiting = JSON.parse((await cli(['run', plan, '--workspace', workspace.path, '--json'])).stdout) as RunJson;
    assert.deepEqual(waiting.pending?.map((request) => [request.stepId, request.kind]), [['notes', 'manual']]);

    const done = await cli(['resume', waiting.runId, '--workspace', workspace.path, '--done', 'notes=Wrote RELEASE.md', '--json']);
    assert.equal(done.code, 3, done.stderr);
    const second = JSON.parse(done.stdout) as RunJson;
    assert.equal(second.results['notes'], 'Wrote RELEASE.md');
    assert.deepEqual(second.pending?.map((request) => request.stepId), ['tell']);

    const failed = await cli(['resume', waiting.runId, '--workspace', workspace.path, '--failed', 'tell=the chat is down', '--json']);
    assert.equal(failed.code, 1, failed.stderr);
    const third = JSON.parse(failed.stdout) as RunJson;
    assert.equal(third.status, 'failed');
    assert.equal(third.steps['tell']?.status, 'failed');
    assert.equal(third.steps['tell']?.error, 'You marked step tell as failed: the chat is down.');
  });

  it('resume --done STEP without a note completes it as done by you', async () => {
    const waiting = JSON.parse((await cli(['run', plan, '--workspace', workspace.path, '--json'])).stdout) as RunJson;
    const done = JSON.parse((await cli(['resume', waiting.runId, '--workspace', workspace.path, '--done', 'notes', '--json'])).stdout) as RunJson;
    assert.equal(done.results['notes'], 'Done by you.');
  });

  it('refuses --failed without a reason, and the same step both done and failed, as usage errors', async () => {
    const noReason = await cli(['resume', 'r1', '--workspace', workspace.path, '--failed', 'notes']);
    assert.equal(noReason.code, 2);
    assert.match(noReason.stderr, /--failed needs STEP=REASON \(say why the step could not be done\), got "notes"/);
    const both = await cli(['resume', 'r1', '--workspace', workspace.path, '--done', 'notes', '--failed', 'notes=no']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /Step notes is given both --done and --failed; give one\./);
  });

  it('refuses --done for a step that is not waiting for you, before resuming anything', async () => {
    const waiting = JSON.parse((await cli(['run', plan, '--workspace', workspace.path, '--json'])).stdout) as RunJson;
    const wrong = await cli(['resume', waiting.runId, '--workspace', workspace.path, '--done', 'tell']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /Nothing was resumed/);
    assert.match(wrong.stderr, /The done or failed given for "tell" matches no pending request/);
  });

  it('the help names the flags', async () => {
    const { stdout } = await cli(['--help']);
    assert.match(stdout, /--done STEP\[=NOTE\]/);
    assert.match(stdout, /--failed STEP=REASON/);
  });
});
