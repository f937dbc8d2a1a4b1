import assert from 'node:assert/strict';
import { reviewStep, reviewWanted } from '../../../../src/core/engine/reviewStep';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunOptions } from '../../../../src/core/engine/runOptions';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import { createBudgetTracker } from '../../../../src/core/llm/budget';
import type { LlmChatRequest } from '../../../../src/core/llm/llmTypes';
import type { Plan } from '../../../../src/core/plan/planSchema';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm, type ScriptedReply } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

async function run(plan: Plan, replies: ScriptedReply[], options: Partial<RunOptions> = {}) {
  const llm = scriptedLlm(replies);
  const events: RunEvent[] = [];
  const handle = runPlan(plan, {
    idSource: () => 'run-1',
    llm,
    clock: new ManualClock(0, { autoAdvance: true }),
    agentLimits: { timeoutMs: Infinity },
    retryBaseDelayMs: 0,
    ...options,
  });
  handle.events.subscribe((event) => events.push(event));
  return { result: await handle.result, events, llm };
}

/** The document the reviewer is shown, parsed back from its user message. */
function reviewedDocument(request: LlmChatRequest | undefined): Record<string, unknown> {
  const content = String(request?.messages.find((message) => message.role === 'user')?.content);
  return JSON.parse(content.slice(content.indexOf('{'))) as Record<string, unknown>;
}

const pass = '{"verdict": "pass"}';

describe('review of a step: a separate model call judges the result', () => {
  it('passes: the review call asks for { verdict, diagnosis } as structured output with the step\'s input and result, counted as a model call', async () => {
    const budget = createBudgetTracker();
    const plan = makePlan([makeStep('S1', { input: 'List the three colours', review: true })]);
    const { result, llm, events } = await run(plan, ['red, green, blue', pass], { budget });
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.deepEqual(result.results['S1'], { answer: 'red, green, blue', changes: { applied: [], rejected: [], failed: [] } });
    const review = llm.requests[1];
    assert.equal(review?.responseSchema?.type, 'json_schema');
    assert.equal(review?.responseSchema?.type === 'json_schema' ? review.responseSchema.name : '', 'step_review');
    assert.match(String(review?.messages[0]?.content), /^You review the result of ONE step of a plan/);
    const document = reviewedDocument(review);
    assert.equal(document['untrusted_input'], 'List the three colours');
    assert.equal(document['untrusted_result'], 'red, green, blue');
    assert.equal(document['file_changes'], 'none');
    assert.deepEqual(document['step'], { id: 'S1', title: 'Step S1' });
    assert.equal(budget.usage().requests, 2, 'the review counts in the run\'s budget');
    assert.equal(events.filter((event) => event.type === 'model_called' && event.stepId === 'S1').length, 2, 'and in its usage');
  });

  it('judges by the project\'s conventions for the step: its instructions and skills, bounded; none without any (issue 29)', async () => {
    const instruction = {
      kind: 'agents' as const,
      path: 'AGENTS.md',
      directory: '',
      applyTo: [],
      text: 'Run the tests with `python3 -m pytest -q`.',
      bytes: 42,
    };
    const skill = {
      name: 'colours',
      description: 'How colours are listed.',
      tags: ['colours'],
      source: 'skills/colours/SKILL.md',
      text: 'Alphabetical order.',
      bytes: 19,
    };
    const plan = makePlan([makeStep('S1', { input: 'List the three colours', review: true, skills: ['colours'] })]);
    const { llm } = await run(plan, ['blue, green, red', pass], { capabilities: { instructions: [instruction], skills: [skill], diagnostics: [] } });
    const conventions = String(reviewedDocument(llm.requests[1])['project_conventions']);
    assert.match(conventions, /### AGENTS\.md\nRun the tests with `python3 -m pytest -q`\./);
    assert.match(conventions, /### Skill colours .*\nHow colours are listed\.\n\nAlphabetical order\./);
    assert.match(String(llm.requests[1]?.messages[0]?.content), /"project_conventions" .* a result that goes against them does not do the step/);
    const plain = makePlan([makeStep('S1', { input: 'List the three colours', review: true })]);
    const huge = { ...instruction, text: 'Keep it short. '.repeat(50_000) };
    const bounded = await run(plain, ['blue, green, red', pass], { capabilities: { instructions: [huge], skills: [], diagnostics: [] } });
    const cut = String(reviewedDocument(bounded.llm.requests[1])['project_conventions']);
    assert.ok(cut.length < 12_001 && cut.includes('(cut to keep the prompt small)'), `${cut.length} characters`);
    // A step without an agent of its own (a gate) is judged by the project's instruction files.
    const gate = makePlan([makeStep('G', { kind: 'synthesis_gate', agent: undefined, input: 'Condense', review: true })]);
    const gated = await run(gate, ['condensed', pass], { capabilities: { instructions: [instruction], skills: [], diagnostics: [] } });
    assert.match(
      String(reviewedDocument(gated.llm.requests[1])['project_conventions']),
      /^## Project conventions\n.*does not do the step\.\n\n### AGENTS\.md\nRun the tests/,
    );
    const without = await run(plain, ['blue, green, red', pass]);
    assert.equal(reviewedDocument(without.llm.requests[1])['project_conventions'], undefined);
  });

  it('fails: a verification failure with the reviewer\'s diagnosis, which the retry gets', async () => {
    const plan = makePlan([makeStep('S1', { input: 'List the three colours', review: true, maxAttempts: 2, onVerificationFailure: 'retry' })]);
    const replies = ['red, green', '{"verdict": "fail", "diagnosis": "Blue is missing."}', 'red, green, blue', pass];
    const { result, llm, events } = await run(plan, replies);
    assert.equal(result.status, 'completed', result.metadata.reason);
    const diagnoses = events.flatMap((event) => (event.type === 'verification_failed' ? [event.diagnosis] : []));
    assert.deepEqual(diagnoses, ['The review found the result wanting: Blue is missing.']);
    assert.match(
      String(llm.requests[2]?.messages.at(-1)?.content),
      /Your previous attempt failed verification: The review found the result wanting: Blue is missing\.\n\nAdjust your approach to satisfy this requirement\.$/,
    );
  });

  it('a failing verdict without a reason still fails, saying so', async () => {
    const { result } = await run(makePlan([makeStep('S1', { review: true })]), ['done', '{"verdict": "fail"}']);
    assert.equal(result.steps['S1']?.error, 'The review found the result wanting: it gave no reason.');
  });

  it('a malformed review answer (after its repair round) fails the attempt, never passes it', async () => {
    const { result, events, llm } = await run(makePlan([makeStep('S1', { review: true })]), ['done', 'Looks fine to me!', '{"verdict": "maybe"}']);
    assert.equal(result.steps['S1']?.status, 'failed');
    assert.match(result.steps['S1']?.error ?? '', /^The review of step S1 gave no usable verdict: verdict: /);
    assert.equal(events.some((event) => event.type === 'verification_failed'), false, 'not a verdict on the work');
    assert.equal(llm.requests.length, 3, 'one repair round');
  });

  it('a hostile 5 MB review reply is not parsed: no usable verdict, and the error stays short', async () => {
    const huge = `{"verdict": "pass", "diagnosis": "${'x'.repeat(5_000_000)}"}`;
    const { result } = await run(makePlan([makeStep('S1', { review: true })]), ['done', huge]);
    assert.equal(result.steps['S1']?.status, 'failed');
    assert.match(
      result.steps['S1']?.error ?? '',
      new RegExp(`^The review of step S1 gave no usable verdict: The reply is ${huge.length} characters long; at most 100000 are read\\.`),
    );
    assert.ok((result.steps['S1']?.error ?? '').length < 2_100);
  });

  it('a used-up budget pauses the step before the review call, like any model call', async () => {
    const budget = createBudgetTracker({ maxRequests: 1 });
    const { result, llm } = await run(makePlan([makeStep('S1', { review: true })]), ['done', pass], { budget });
    assert.equal(result.status, 'waiting');
    assert.deepEqual(result.pending?.map((request) => request.kind), ['budget']);
    assert.equal(llm.requests.length, 1, 'the review call was refused');
    assert.equal(result.steps['S1']?.status, 'awaiting_budget');
  });

  it('a run cancelled during the review neither completes nor fails the step', async () => {
    for (const ending of ['answers', 'throws'] as const) {
      let cancel = (): void => undefined;
      const llm = scriptedLlm([
        'done',
        () => {
          cancel();
          if (ending === 'throws') throw new Error('connection reset');
          return pass;
        },
      ]);
      const events: RunEvent[] = [];
      const handle = runPlan(makePlan([makeStep('S1', { review: true })]), {
        llm,
        clock: new ManualClock(0, { autoAdvance: true }),
        agentLimits: { timeoutMs: Infinity },
      });
      cancel = () => handle.cancel('stop');
      handle.events.subscribe((event) => events.push(event));
      const result = await handle.result;
      assert.equal(result.status, 'cancelled', ending);
      assert.equal(
        events.some((event) => event.type === 'step_completed' || event.type === 'step_failed' || event.type === 'verification_failed'),
        false,
        ending,
      );
    }
  });

  it('a model error during the review fails the attempt, saying it was the review', async () => {
    const { result } = await run(makePlan([makeStep('S1', { review: true })]), [
      'done',
      () => {
        throw new Error('connection reset');
      },
    ]);
    assert.equal(result.steps['S1']?.error, 'The review of step S1 could not be done: connection reset');
  });

  it('runs after the verification predicate: a step that fails its predicate is not reviewed', async () => {
    const { result, llm } = await run(makePlan([makeStep('S1', { review: true, verification: 'result.answer === "yes"' })]), ['no', pass]);
    assert.equal(result.steps['S1']?.status, 'failed');
    assert.equal(llm.requests.length, 1);
  });

  it('reviewCriticalSteps reviews critical agent steps without a review of their own; a step\'s own review wins', () => {
    assert.equal(reviewWanted(makeStep('a'), true), true);
    assert.equal(reviewWanted(makeStep('a'), false), false);
    assert.equal(reviewWanted(makeStep('a', { critical: false }), true), false);
    assert.equal(reviewWanted(makeStep('a', { review: false }), true), false);
    assert.equal(reviewWanted(makeStep('a', { critical: false, review: true }), false), true);
    assert.equal(reviewWanted(makeStep('t', { kind: 'tool', tool: 'read_file' }), true), false);
    assert.equal(reviewWanted(makeStep('g', { kind: 'synthesis_gate' }), true), false);
  });

  it('with the setting on, a critical agent step gets the review call; off (the default), none', async () => {
    const plan = makePlan([makeStep('S1')]);
    const on = await run(plan, ['done', '{"verdict": "fail", "diagnosis": "Not done."}'], { reviewCriticalSteps: true });
    assert.equal(on.result.steps['S1']?.error, 'The review found the result wanting: Not done.');
    const off = await run(plan, ['done', 'unused']);
    assert.equal(off.result.status, 'completed');
    assert.equal(off.llm.requests.length, 1);
  });

  it('without a model: a step that asks for review fails clearly; one reviewed by the setting completes with a warning', async () => {
    const stepRunner = async (): Promise<string> => 'ran';
    const asked = await runPlan(makePlan([makeStep('S1', { review: true })]), {
      stepRunner,
      clock: new ManualClock(0, { autoAdvance: true }),
      noModelHint: 'Set one up.',
    }).result;
    assert.equal(asked.steps['S1']?.status, 'failed');
    assert.equal(asked.steps['S1']?.error, "Step S1 asks for a model's review of its result, and this run has no model. Set one up.");
    const bySetting = await runPlan(makePlan([makeStep('S1')]), { stepRunner, reviewCriticalSteps: true, clock: new ManualClock(0, { autoAdvance: true }) })
      .result;
    assert.equal(bySetting.steps['S1']?.status, 'completed');
    assert.deepEqual(bySetting.metadata.warnings, ['S1: Not reviewed: the run has no model for the review of critical steps.']);
  });

  it('reviews a step with an output schema on its parsed result, and tells the reviewer the checks when given', async () => {
    const llm = scriptedLlm([pass]);
    const step = makeStep('S1', { input: 'Find the city' });
    const review = await reviewStep(llm, {
      plan: makePlan([step]),
      step,
      input: 'Find the city',
      result: { city: 'Oslo' },
      checks: [{ kind: 'file_exists', passed: true, detail: 'city.txt exists' }],
      signal: new AbortController().signal,
    });
    assert.deepEqual(review, { kind: 'pass' });
    const document = reviewedDocument(llm.requests[0]);
    assert.equal(document['untrusted_result'], '{"city":"Oslo"}');
    assert.deepEqual(document['checks'], [{ kind: 'file_exists', passed: true, detail: 'city.txt exists' }]);
    assert.equal(Object.hasOwn(document, 'file_changes'), false);
  });
});
