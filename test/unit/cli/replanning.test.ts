import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

interface JsonResult {
  runId: string;
  status: string;
  results: Record<string, unknown>;
  metadata: { replanCount: number; replanHistory: { failedRunId: string; stepIds: string[] }[]; reason?: string };
}

const failingPlan = {
  objective: 'Copy the data',
  steps: [{ id: 'read', title: 'Read the data', kind: 'tool', tool: 'read_file', args: { path: 'missing.json' }, onFailure: 'replan' }],
};

describe('task-planner run and resume repair failed steps with the model', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-replan-');
  let server: FakeOpenAiServer;
  let planFile: string;
  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
    planFile = join(workspace.path, 'plan.json');
    writeFileSync(planFile, JSON.stringify(failingPlan));
  });
  afterEach(() => server.close());
  const model = () => ['--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'gpt-4o-mini', '--yes', '--json'];

  it('run: a step that fails under "replan" gets a repair plan, which completes; --max-replans 0 turns it off', async () => {
    server.enqueue({ kind: 'message', content: JSON.stringify({ objective: 'x', steps: [{ id: 'write', title: 'Write a note', kind: 'tool', tool: 'write_file', args: { path: 'note.txt', content: 'no data\n' }, dependsOn: [] }] }) });
    const repaired = await runCli(['run', planFile, ...model()]);
    assert.equal(repaired.code, 0, repaired.stderr + repaired.stdout.slice(-3000));
    const result = JSON.parse(repaired.stdout) as JsonResult;
    assert.equal(result.status, 'completed');
    assert.equal(result.metadata.replanCount, 1);
    assert.match(result.runId, /-replan-1$/);
    assert.equal(readFileSync(join(workspace.path, 'note.txt'), 'utf8'), 'no data\n');
    assert.match(repaired.stderr, /Replanning: Step read failed and asked for a repair plan\./);

    const off = await runCli(['run', planFile, ...model(), '--max-replans', '0']);
    assert.equal(off.code, 1, off.stderr);
    assert.match((JSON.parse(off.stdout) as JsonResult).metadata.reason ?? '', /the limit of 0 repair plans per run is used up/);
    const bad = await runCli(['run', planFile, ...model(), '--replan-cooldown', 'soon']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--replan-cooldown must be a number of seconds from 0 to 600, got "soon"/);
  });

  // A newcomer's find (2026-12-01): the run's end names the last repair's run, whose Undo held none of the first run's changes.
  it('undo of the run the end names takes back the changes of the first run and of every repair', async () => {
    const plan = {
      objective: 'Note and copy the data',
      steps: [
        { id: 'note', tool: 'write_file', args: { path: 'first.txt', content: 'from the first run\n' } },
        { id: 'read', title: 'Read the data', tool: 'read_file', args: { path: 'missing.json' }, dependsOn: ['note'], onFailure: 'replan' },
      ],
    };
    writeFileSync(planFile, JSON.stringify(plan));
    server.enqueue({ kind: 'message', content: JSON.stringify({ objective: 'x', steps: [{ id: 'write', title: 'Write a note', kind: 'tool', tool: 'write_file', args: { path: 'repair.txt', content: 'r\n' }, dependsOn: [] }] }) });
    const repaired = await runCli(['run', planFile, ...model()]);
    const result = JSON.parse(repaired.stdout) as JsonResult;
    assert.equal(result.status, 'completed', repaired.stdout.slice(-2500));
    assert.match(result.runId, /-replan-1$/);
    // The second newcomer's find (2026-12-01): `runs` listed the repaired run as failed, with nothing linking it to its repair.
    const listed = await runCli(['runs', '--workspace', workspace.path]);
    assert.match(listed.stdout, new RegExp(`^${result.runId}  completed, repair 1 +2/2 `, 'm'));
    assert.match(listed.stdout, new RegExp(`^${result.runId.replace(/-replan-1$/, '')} +failed, replaced by repair 1 +1/2 `, 'm'));
    // The second attacker's find (2026-12-01): --from a step the repair kept said "Nothing to undo" (its change was made in the first run).
    const fromKept = await runCli(['undo', result.runId, '--from', 'note', '--workspace', workspace.path]);
    assert.equal(fromKept.code, 0, fromKept.stderr);
    assert.deepEqual([existsSync(join(workspace.path, 'first.txt')), existsSync(join(workspace.path, 'repair.txt'))], [false, true]);
    const undo = await runCli(['undo', result.runId, '--workspace', workspace.path]);
    assert.equal(undo.code, 0, undo.stderr);
    assert.match(undo.stdout, /Undo removed repair\.txt, which the run created\./);
    assert.deepEqual([existsSync(join(workspace.path, 'first.txt')), existsSync(join(workspace.path, 'repair.txt'))], [false, false]);
  });

  // A newcomer's find (2026-12-01): the printed resume command had no --base-url nor --model, and pasted, it could not repair.
  it('the commands it prints to paste next carry the model options it was given', async () => {
    const plan = { objective: 'Write a note', steps: [{ id: 'note', tool: 'write_file', args: { path: 'pasted.txt', content: 'x' } }] };
    writeFileSync(planFile, JSON.stringify(plan));
    // A newcomer's trial (2026-12-03): without --max-requests and --strategy, a pasted resume went past the budget set.
    const waits = await runCli([
      'run', planFile, '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'gpt-4o-mini', '--agent-model', 'gpt-4.1',
      '--max-requests', '7', '--timeout', '30', '--strategy', 'plan_act_reflect', '--concurrency', '2', '--review-critical-steps',
    ]);
    const carried = '--max-requests 7 --timeout 30 --strategy plan_act_reflect --concurrency 2 --review-critical-steps';
    assert.match(
      waits.stdout,
      new RegExp(`^ {2}task-planner resume \\S+ --workspace \\S+ --base-url ${server.baseURL.replace(/[.]/g, '\\.')} --model gpt-4o-mini --agent-model gpt-4\\.1 ${carried} --approve note@`, 'm'),
      waits.stdout + waits.stderr,
    );
  });

  it('resume: a repair run that waited on a question continues, reports the earlier repair, and repairs again', async () => {
    server.enqueue({
      kind: 'message',
      content: JSON.stringify({
        objective: 'x',
        steps: [
          { id: 'ask', title: 'Ask', kind: 'clarification', input: 'Which file?', dependsOn: [] },
          { id: 'read2', title: 'Read the file named', kind: 'tool', tool: 'read_file', args: { path: 'also-missing.json' }, dependsOn: ['ask'], onFailure: 'replan' },
        ],
      }),
    });
    const first = await runCli(['run', planFile, ...model()]);
    assert.equal(first.code, 3, first.stderr);
    const waiting = JSON.parse(first.stdout) as JsonResult;
    assert.match(waiting.runId, /-replan-1$/);
    assert.equal(waiting.metadata.replanCount, 1);

    server.enqueue({ kind: 'message', content: JSON.stringify({ objective: 'x', steps: [{ id: 'note', title: 'Note', kind: 'tool', tool: 'write_file', args: { path: 'resumed.txt', content: 'ok\n' }, dependsOn: [] }] }) });
    const resumed = await runCli(['resume', waiting.runId, ...model(), '--answer', 'ask=also-missing.json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    const result = JSON.parse(resumed.stdout) as JsonResult;
    assert.equal(result.status, 'completed');
    assert.equal(result.runId, waiting.runId.replace(/-replan-1$/, '-replan-2'));
    assert.equal(result.metadata.replanCount, 2);
    assert.deepEqual(result.metadata.replanHistory.map((record) => record.stepIds), [['read'], ['read2']]);
    assert.equal(readFileSync(join(workspace.path, 'resumed.txt'), 'utf8'), 'ok\n');
  });
});
