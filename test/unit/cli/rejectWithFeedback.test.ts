import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import type { CliIo } from '../../../src/cli/cliIo';
import { describeApprovalForTerminal, terminalInteraction } from '../../../src/cli/terminalInteraction';
import type { ApprovalRequest } from '../../../src/core/interactionPorts';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const request: ApprovalRequest = { kind: 'command', stepId: 'T', title: 'Upload', argv: ['./upload.sh'], cwd: '', shell: false };

/** An interactive io answering each question in turn, recording what was asked. */
function answering(...answers: string[]): CliIo & { asked: string[] } {
  const asked: string[] = [];
  return { interactive: true, asked, ask: async (question: string) => (asked.push(question), answers.shift() ?? '') } as unknown as CliIo & { asked: string[] };
}

describe('the terminal: Reject with feedback and a retry\'s attempt', () => {
  it('"f" rejects and asks what the step should do instead; the answer comes back bounded and escaped', async () => {
    const io = answering('f', 'use --dry-run first \u001b[2J');
    const decision = await terminalInteraction(io, { yes: false }).requestApproval({ ...request, feedbackHeard: true }, new AbortController().signal);
    assert.deepEqual(decision, { approved: false, feedback: 'use --dry-run first \\u001b[2J' });
    assert.match(io.asked[0] ?? '', /\[f\]eedback/);
    assert.equal(io.asked[1], 'What should the step do instead? ');
  });

  it("offers no feedback where nothing would hear it (a tool step's request): \"f\" is a plain rejection", async () => {
    const io = answering('f', 'never asked');
    const decision = await terminalInteraction(io, { yes: false }).requestApproval(request, new AbortController().signal);
    // No reason the user did not give: the summary says "S1 rejected by you", not "rejected by you: Rejected on the terminal."
    assert.deepEqual(decision, { approved: false });
    assert.doesNotMatch(io.asked[0] ?? '', /feedback/);
    assert.equal(io.asked.length, 1);
  });

  it('"n" keeps its meaning: a plain rejection, no feedback asked', async () => {
    const io = answering('n');
    assert.deepEqual(await terminalInteraction(io, { yes: false }).requestApproval(request, new AbortController().signal), {
      approved: false,
    });
    assert.equal(io.asked.length, 1);
  });

  it('a retry says which attempt and why the last failed', () => {
    const text = describeApprovalForTerminal({ ...request, retry: { attempt: 2, of: 3, lastError: 'connection refused' } });
    assert.match(text, /\n {2}Attempt 2 of 3\. Attempt 1 failed: connection refused$/);
  });

  it('a command that may have run before an interruption says so, and why --yes does not answer it (it read as a fresh question)', async () => {
    const text = describeApprovalForTerminal({ ...request, mayHaveRun: true });
    assert.match(text, /\n {2}this step started the same command before the run was interrupted: it may already have run, so --yes does not answer this;/);
    const io = answering('y');
    assert.deepEqual(await terminalInteraction(io, { yes: true }).requestApproval({ ...request, mayHaveRun: true }, new AbortController().signal), { approved: true });
    assert.equal(io.asked.length, 1, '--yes answered a command that may have run');
  });
});

describe('task-planner resume --reject STEP=REASON', function () {
  this.timeout(120_000);
  const workspace = temporaryDirectory('tp-reject-feedback-', { perSuite: true });
  const fixture = (name: string): string => resolve(__dirname, '../../fixtures', name);

  it('rejects with the reason (shown, not lost); --reject STEP= alone is refused as bad input', async () => {
    const first = await runCli(['run', fixture('notes.plan.json'), '--workspace', workspace.path, '--json']);
    const waiting = JSON.parse(first.stdout) as { runId: string };
    await runCli(['resume', waiting.runId, '--workspace', workspace.path, '--answer', 'name=Ada']);
    const bad = await runCli(['resume', waiting.runId, '--workspace', workspace.path, '--reject', '=why']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--reject needs STEP or STEP=REASON/);
    const rejected = await runCli(['resume', waiting.runId, '--workspace', workspace.path, '--reject', `write=Call it hello.md \u001b[31m${'!'.repeat(5000)}`, '--json']);
    const done = JSON.parse(rejected.stdout) as { steps: Record<string, { status: string; reason?: string }> };
    assert.equal(done.steps['write']?.status, 'skipped', 'a tool step cannot propose again: the feedback is its reason');
    assert.match(done.steps['write']?.reason ?? '', /^Rejected by you: Call it hello\.md \\u001b\[31m!+… \(\d+ more characters cut\)$/);
    const journal = readFileSync(join(workspace.path, '.task-planner', 'runs', `${waiting.runId}.jsonl`), 'utf8');
    assert.ok(!journal.includes('\u001b') && journal.includes('Call it hello.md'));
  });
});
