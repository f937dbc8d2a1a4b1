import assert from 'node:assert/strict';
import { runEventProblem } from '../../../../src/core/engine/runEventSchema';
import type { RunEventType } from '../../../../src/core/engine/runEvents';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([makeStep('a')]);
const request = { id: 'a@1', fingerprint: 'f', stepId: 'a', kind: 'approval', prompt: 'Write x?' };

/**
 * A replayable body of every event type, and the fields replay cannot do without
 * (exhaustive: a new event type does not compile without its row).
 */
const cases: Record<RunEventType, { body: Record<string, unknown>; required: string[] }> = {
  run_started: { body: { plan }, required: ['plan'] },
  run_resumed: { body: { supplied: {} }, required: ['supplied'] },
  plan_generated: { body: { planner: 'model', model: 'm', steps: 2, critiqueScore: 8, findings: 1 }, required: ['planner', 'steps', 'critiqueScore', 'findings'] },
  step_ready: { body: { stepId: 'a' }, required: ['stepId'] },
  step_started: { body: { stepId: 'a', attempt: 1 }, required: ['stepId', 'attempt'] },
  step_progress: { body: { stepId: 'a', message: 'm' }, required: ['stepId', 'message'] },
  step_output: { body: { stepId: 'a', text: 't' }, required: ['stepId', 'text'] },
  step_warning: { body: { stepId: 'a', message: 'm' }, required: ['stepId', 'message'] },
  approval_requested: { body: { stepId: 'a', request }, required: ['stepId', 'request'] },
  clarification_requested: { body: { stepId: 'a', request }, required: ['stepId', 'request'] },
  review_requested: { body: { stepId: 'a', request }, required: ['stepId', 'request'] },
  manual_requested: { body: { stepId: 'a', request }, required: ['stepId', 'request'] },
  budget_exhausted: { body: { stepId: 'a', request, usage: { tokens: 3 } }, required: ['stepId', 'request', 'usage'] },
  request_answered: { body: { stepId: 'a', kind: 'approval' }, required: ['stepId', 'kind'] },
  step_deferred: { body: { stepId: 'a' }, required: ['stepId'] },
  agent_turn: {
    body: { stepId: 'a', turn: 1, text: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{}' }], promptTokens: 3, completionTokens: 2 },
    required: ['stepId', 'turn', 'text', 'toolCalls', 'promptTokens', 'completionTokens'],
  },
  agent_tool_result: { body: { stepId: 'a', turn: 1, callId: 'c1', content: '{}' }, required: ['stepId', 'turn', 'callId', 'content'] },
  step_completed: { body: { stepId: 'a', result: 'r' }, required: ['stepId'] },
  step_failed: { body: { stepId: 'a', attempt: 1, error: 'e', disposition: 'fail' }, required: ['stepId', 'attempt', 'error', 'disposition'] },
  verification_failed: { body: { stepId: 'a', attempt: 2, diagnosis: 'd' }, required: ['stepId', 'attempt', 'diagnosis'] },
  checks_evaluated: { body: { stepId: 'a', attempt: 1, checks: [{ kind: 'command', passed: false, detail: 'exit code 1' }] }, required: ['stepId', 'attempt', 'checks'] },
  step_skipped: { body: { stepId: 'a', reason: 'r' }, required: ['stepId', 'reason'] },
  replan_started: { body: { stepId: 'a', reason: 'r' }, required: ['stepId', 'reason'] },
  replan_completed: { body: { plan }, required: ['plan'] },
  replan_failed: { body: { stepId: 'S1', reason: 'No repair plan could be made.' }, required: ['stepId', 'reason'] },
  context_compacted: {
    body: { stepId: 'a', summary: 's', beforeTokens: 10, afterTokens: 5, method: 'llm' },
    required: ['stepId', 'summary', 'beforeTokens', 'afterTokens', 'method'],
  },
  file_changed: { body: { stepId: 'a', path: 'x.ts', operation: 'write' }, required: ['stepId', 'path', 'operation'] },
  command_started: { body: { stepId: 'a', argv: ['npm', 'test'], cwd: '' }, required: ['stepId', 'argv', 'cwd'] },
  file_withheld: { body: { stepId: 'a', path: '.env' }, required: ['stepId', 'path'] },
  model_requested: { body: { stepId: 'a' }, required: ['stepId'] },
  model_called: { body: { stepId: 'a', model: 'm', promptTokens: 1, completionTokens: 2 }, required: ['stepId', 'model', 'promptTokens', 'completionTokens'] },
  model_failed: {
    body: { stepId: 'a', model: 'm', attempts: 2, requests: 1, promptTokens: 1, completionTokens: 0 },
    required: ['stepId', 'model', 'attempts', 'requests', 'promptTokens', 'completionTokens'],
  },
  run_waiting: { body: { pending: [request] }, required: ['pending'] },
  run_cancelled: { body: { reason: 'r' }, required: ['reason'] },
  run_completed: { body: {}, required: [] },
  run_failed: { body: { reason: 'r' }, required: ['reason'] },
};

const event = (type: string, body: Record<string, unknown>): Record<string, unknown> => ({ type, runId: 'r', seq: 1, time: 5, ...body });

describe('runEventProblem', () => {
  for (const [type, { body, required }] of Object.entries(cases)) {
    it(`${type}: accepts a replayable event and names each missing field`, () => {
      assert.equal(runEventProblem(event(type, body)), undefined);
      for (const field of required) {
        const { [field]: _dropped, ...rest } = body;
        const problem = runEventProblem(event(type, rest));
        assert.ok(problem?.startsWith(`${type}: ${field}: `), `${type} without ${field}: ${problem}`);
      }
    });
  }

  it('keeps fields it does not know, so an event that gained a field stays readable', () => {
    assert.equal(runEventProblem(event('step_ready', { stepId: 'a', addedLater: { any: 1 } })), undefined);
  });

  it('names the problem in the header before looking at the type', () => {
    assert.equal(runEventProblem('step_ready'), 'Invalid input: expected object, received string');
    assert.match(runEventProblem({ type: 'step_ready', runId: 'r', seq: 0, time: 1, stepId: 'a' }) ?? '', /^seq: /);
    assert.match(runEventProblem({ type: 'step_ready', runId: 'r', seq: 1.5, time: 1, stepId: 'a' }) ?? '', /^seq: /);
    assert.match(runEventProblem({ type: 'step_ready', seq: 1, time: 1, stepId: 'a' }) ?? '', /^runId: /);
    assert.match(runEventProblem({ type: 'step_ready', runId: 'r', seq: 1, stepId: 'a' }) ?? '', /^time: /);
    assert.match(runEventProblem({ runId: 'r', seq: 1, time: 1 }) ?? '', /^type: /);
  });

  it('refuses a type it does not know, inherited object keys included', () => {
    assert.equal(runEventProblem(event('step_exploded', {})), '"step_exploded" is not a type of run event');
    assert.equal(runEventProblem(event('constructor', {})), '"constructor" is not a type of run event');
    assert.equal(runEventProblem(event('toString', {})), '"toString" is not a type of run event');
  });

  it('names a nested field by its path', () => {
    const { prompt: _prompt, ...withoutPrompt } = request;
    assert.match(runEventProblem(event('approval_requested', { stepId: 'a', request: withoutPrompt })) ?? '', /^approval_requested: request\.prompt: /);
    assert.match(runEventProblem(event('run_waiting', { pending: [{ ...request, stepId: '' }] })) ?? '', /^run_waiting: pending\.0\.stepId: /);
    assert.match(
      runEventProblem(event('run_started', { plan: { ...plan, steps: [{ ...makeStep('a'), kind: 'dance' }] } })) ?? '',
      /^run_started: plan\.steps\.0\.kind: /,
    );
  });

  // An outside attack (2026-12-03): a committed journal's plan with a step id holding a line break forged lines of the
  // CLI's progress on resume; ids are held to what a parsed plan's are.
  it('refuses a journaled plan whose step id holds a line break, a control or an invisible character', () => {
    for (const id of ['a\n[2/2] ✔ deploy', 'a\u202eb', 'a\u200bb']) {
      assert.match(
        runEventProblem(event('run_started', { plan: { ...plan, steps: [makeStep(id)] } })) ?? '',
        /^run_started: plan\.steps\.0\.id: a step id holds no line break, control or invisible character/,
        JSON.stringify(id),
      );
    }
    assert.equal(runEventProblem(event('run_started', { plan: { ...plan, steps: [makeStep('étape 1')] } })), undefined);
  });

  it('refuses values out of range, not only missing ones', () => {
    const refused: [string, Record<string, unknown>, string][] = [
      ['step_started', { stepId: 'a', attempt: 0 }, 'attempt'],
      ['step_started', { stepId: '', attempt: 1 }, 'stepId'],
      ['step_failed', { stepId: 'a', attempt: 1, error: 'e', disposition: 'explode' }, 'disposition'],
      ['step_failed', { stepId: 'a', attempt: 1, error: 'e', disposition: 'skip', retryInMs: 'soon' }, 'retryInMs'],
      ['file_changed', { stepId: 'a', path: '', operation: 'write' }, 'path'],
      ['file_changed', { stepId: 'a', path: 'x', operation: 'chmod' }, 'operation'],
      ['command_started', { stepId: 'a', argv: [], cwd: '' }, 'argv'],
      ['step_progress', { stepId: 'a', message: 'm', percent: 101 }, 'percent'],
      ['step_progress', { stepId: 'a', message: 'm', percent: -1 }, 'percent'],
      ['step_progress', { stepId: 'a', message: 'm', percent: 4.5 }, 'percent'],
      ['context_compacted', { stepId: 'a', summary: 's', beforeTokens: 1, afterTokens: 1, method: 'magic' }, 'method'],
      ['run_cancelled', { reason: 'r', interrupted: false }, 'interrupted'],
      ['budget_exhausted', { stepId: 'a', request, usage: { tokens: 'many' } }, 'usage.tokens'],
      ['model_called', { stepId: 'a', model: 'm', promptTokens: 1, completionTokens: 2, costUsd: 'free' }, 'costUsd'],
      ['model_called', { stepId: 'a', model: 'm', promptTokens: 1, completionTokens: 2, retried: { requests: -3, promptTokens: 0, completionTokens: 0 } }, 'retried.requests'],
      ['model_failed', { stepId: 'a', model: 'm', attempts: 1, requests: 1, promptTokens: -1_000_000, completionTokens: 0 }, 'promptTokens'],
      ['model_called', { stepId: 'a', model: 'm', promptTokens: -1_000_000, completionTokens: 2 }, 'promptTokens'],
      ['request_answered', { stepId: 'a', kind: 'approval', given: 'yes' }, 'given'],
      ['step_completed', { stepId: 'a', result: 1, restored: 'yes' }, 'restored'],
      ['run_resumed', { supplied: {}, journalWarning: 3 }, 'journalWarning'],
      ['run_resumed', { supplied: {}, warnings: [3] }, 'warnings.0'],
      ['checks_evaluated', { stepId: 'a', attempt: 1, checks: [{ kind: 'teleport', passed: true, detail: '' }] }, 'checks.0.kind'],
      ['checks_evaluated', { stepId: 'a', attempt: 1, checks: [{ kind: 'command', passed: 'yes', detail: '' }] }, 'checks.0.passed'],
    ];
    for (const [type, body, field] of refused) {
      const problem = runEventProblem(event(type, body));
      assert.ok(problem?.startsWith(`${type}: ${field}: `), `${type} ${JSON.stringify(body)}: ${problem}`);
    }
  });

  it('reads answers bound to requests and the older answers by step, and refuses an answer of no known kind', () => {
    const bound = { stepId: 'a', fingerprint: 'f' };
    const supplied = {
      'a@1': { ...bound, kind: 'approval', decision: { approved: true } },
      'b@1': { ...bound, kind: 'clarification', answer: 'yes' },
      'c@1': { ...bound, kind: 'review', decision: { approved: false, notes: 'n' } },
      'd@1': { ...bound, kind: 'manual', outcome: { done: false, reason: 'could not' } },
    };
    assert.equal(runEventProblem(event('run_resumed', { supplied })), undefined);
    assert.equal(runEventProblem(event('run_resumed', { supplied: { approvals: { a: true }, answers: {}, reviews: {} } })), undefined);
    assert.match(runEventProblem(event('run_resumed', { supplied: { 'a@1': { ...bound, kind: 'vote' } } })) ?? '', /^run_resumed: supplied: /);
    assert.match(
      runEventProblem(event('run_resumed', { supplied: { 'a@1': { ...bound, kind: 'manual', outcome: { done: false } } } })) ?? '',
      /^run_resumed: supplied: /,
    );
  });
});
