import assert from 'node:assert/strict';
import { journaledEffects } from '../../../../src/core/engine/journaledEffects';
import { PendingChanges } from '../../../../src/core/engine/pendingChanges';
import { resolveRunOptions } from '../../../../src/core/engine/resolveRunOptions';
import type { RunEventBody } from '../../../../src/core/engine/runEvents';
import { StepFailure } from '../../../../src/core/tools/stepFailure';
import { checkBudgetAcrossResumes, play, type AttemptScript, type Scenario } from '../../../support/budgetAcrossResumes';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

// The shrunk counterexamples of budgetAcrossResumes.property.test.ts: a run's model use must be journaled before what it
// pays for happens, and its end before the run's end, whatever stops the run (a full disk, a step's time limit, Ctrl+C,
// a critical step's halt), or a resumed run's budget starts from too little and a journal may not be read at all.
describe('attack: what a run spent on the model, told by its journal', () => {
  const step = { dependsOn: [], maxAttempts: 1, onFailure: 'stop' as const, critical: false, timeoutMs: undefined, review: false };
  const at = (outcome: AttemptScript['outcome'], delayMs = 0, promptTokens = 0): AttemptScript => ({ outcome, delayMs, promptTokens, completionTokens: 0 });
  const scenario = (patch: Partial<Scenario>): Scenario => ({
    steps: [step],
    concurrency: 1,
    clientAttempts: 1,
    maxRequests: 1,
    maxTokens: undefined,
    script: [at('ok')],
    processes: [{ raiseRequests: 0, fault: undefined }],
    ...patch,
  });

  it('a full disk, then a resume once it has room: the request its journal could not keep is never sent (2 under --max-requests 1)', async () => {
    // The disk keeps the run's start and nothing more: the step's request was sent all the same, unjournaled.
    const input = scenario({ processes: [{ raiseRequests: 0, fault: { kind: 'diskFull', at: 1 } }, { raiseRequests: 0, fault: undefined }] });
    const { server, ends } = await play(input);
    // Seen before the fix: 2 requests reached the model under a limit of 1 (the resumed budget started from 0).
    assert.deepEqual(ends.map((end) => end.sent), [0, 1]);
    assert.equal(server.requests, 1);
    await checkBudgetAcrossResumes(input);
  });

  it('a model call whose request the store refused is not sent: the step fails, not retried, saying why', async () => {
    const events: RunEventBody[] = [];
    const llm = scriptedLlm(['hi']);
    const options = journaledEffects(resolveRunOptions(makePlan([makeStep('S1')]), { llm, clock: new ManualClock() }), 'S1', (body) => events.push(body), new PendingChanges(), () =>
      Promise.resolve(false),
    );
    const refused = await options.llm?.chat({ messages: [{ role: 'user', content: 'hello' }], signal: new AbortController().signal }).catch((error: unknown) => error);
    assert.ok(refused instanceof StepFailure && !refused.retryable, String(refused));
    assert.match(refused.message, /not called: the run journal could not be written \(is the disk full\?\)/);
    assert.equal(llm.requests.length, 0, 'requests sent unjournaled');
    assert.deepEqual(events, [
      { type: 'model_requested', stepId: 'S1' },
      { type: 'model_failed', stepId: 'S1', model: 'scripted-model', attempts: 1, requests: 0, promptTokens: 0, completionTokens: 0 },
    ]);
  });

  it("a step's time limit cuts a call off as the run ends: the call's end lands before the run's, and the journal can be read", async () => {
    // Attempts that never reach the server (10 ms each, then a backoff): the 50 ms limit falls in the second backoff.
    const input = scenario({ steps: [{ ...step, timeoutMs: 50 }], clientAttempts: 3, script: [at('unreached', 10)] });
    // Seen before the fix: JournalError "event 10: model_failed comes after the run ended (partial)": a run nobody can
    // open, resume or export any more.
    await checkBudgetAcrossResumes(input);
  });

  it('Ctrl+C while a reply streams, then a resume: the tokens it had spent still count against --max-tokens', async () => {
    // 30 tokens of the prompt read before the stop, under a limit of 20.
    const input = scenario({
      maxRequests: 5,
      maxTokens: 20,
      script: [at('ok', 200, 30)],
      processes: [
        { raiseRequests: 0, fault: { kind: 'stop', at: 0 } },
        { raiseRequests: 0, fault: undefined },
      ],
    });
    const { server, usage } = await play(input);
    // Seen before the fix: the call's end was dropped after the stop (0 tokens journaled), and the resumed run sent the
    // call again: 60 tokens under a limit of 20.
    assert.equal(server.requests, 1, 'requests sent after the token limit was reached');
    assert.equal(usage?.promptTokens, 30);
    await checkBudgetAcrossResumes(input);
  });

  it("a critical step's halt while a call is out: the journal counts the attempts that reached the model, not one that never did", async () => {
    // The first attempt never reaches the server, the retry does and outlives the step's 50 ms limit: the step fails, the run halts.
    const input = scenario({ steps: [{ ...step, critical: true, timeoutMs: 50 }], clientAttempts: 2, script: [at('unreached'), at('ok', 200)] });
    const { server, usage } = await play(input);
    // Seen before the fix: 2 requests journaled (the call's end, taking back the unreached attempt, dropped after the halt).
    assert.deepEqual([server.requests, usage?.requests], [1, 1]);
    await checkBudgetAcrossResumes(input);
  });
});
