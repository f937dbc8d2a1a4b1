import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createMemoryRunStore } from '../../src/core/engine/memoryRunStore';
import { replayJournal } from '../../src/core/engine/replayJournal';
import { resumeRun } from '../../src/core/engine/resumeRun';
import { runPlan } from '../../src/core/engine/runPlan';
import type { RunHandle } from '../../src/core/engine/runOptions';
import { finalRunStatuses } from '../../src/core/engine/runEvents';
import { createBudgetTracker, type BudgetLimits, type BudgetTracker } from '../../src/core/llm/budget';
import { LlmError } from '../../src/core/llm/llmError';
import type { LlmChatRequest, LlmChatResponse, LlmSpent } from '../../src/core/llm/llmTypes';
import type { Plan } from '../../src/core/plan/planSchema';
import type { JournalEntry, RunStore } from '../../src/core/runStorePorts';
import type { Clock, LlmClient } from '../../src/core/servicePorts';
import { ManualClock } from '../fakes/manualClock';
import { makePlan, makeStep } from './randomPlans';

/**
 * One attempt as the model server takes it, after `delayMs` on the run's clock (a slow one outlives a step's time limit):
 * answered with its tokens; failed in a way worth another attempt (a 500 after part of a reply: its tokens were spent);
 * failed for good (a 400); or never reached (a network error before the request left: nothing spent).
 */
export interface AttemptScript {
  outcome: 'ok' | 'transient' | 'fatal' | 'unreached';
  delayMs: number;
  promptTokens: number;
  completionTokens: number;
}

/**
 * What ends a process early: killed (SIGKILL) at its `at`-th store operation, before or after it took effect; stopped
 * (Ctrl+C) once more than `at` of its requests reached the model; or its disk full from its `at`-th store operation on
 * (every write refused, the refused entries held in memory as `RunStore` promises, lost when the process ends).
 */
export type Fault = { kind: 'kill'; at: number; after: boolean } | { kind: 'stop'; at: number } | { kind: 'diskFull'; at: number };

const attempt: fc.Arbitrary<AttemptScript> = fc.record({
  outcome: fc.constantFrom('ok' as const, 'ok' as const, 'transient' as const, 'fatal' as const, 'unreached' as const),
  delayMs: fc.constantFrom(0, 0, 10, 200),
  promptTokens: fc.nat(30),
  completionTokens: fc.nat(30),
});

const fault: fc.Arbitrary<Fault> = fc.oneof(
  fc.record({ kind: fc.constant('kill' as const), at: fc.nat(40), after: fc.boolean() }),
  fc.record({ kind: fc.constant('stop' as const), at: fc.nat(8) }),
  fc.record({ kind: fc.constant('diskFull' as const), at: fc.nat(40) }),
);

/** One process of the run (the first `runPlan`, then one `resumeRun` each): how much it raises the request limit, and its fault. */
const processSpec = fc.record({ raiseRequests: fc.constantFrom(0, 0, 0, 1, 3), fault: fc.option(fault, { nil: undefined }) });

const stepSpec = fc.record({
  dependsOn: fc.array(fc.nat(5), { maxLength: 2 }),
  maxAttempts: fc.integer({ min: 1, max: 3 }),
  onFailure: fc.constantFrom('stop' as const, 'skip' as const),
  critical: fc.boolean(),
  timeoutMs: fc.option(fc.constantFrom(50, 150), { nil: undefined }),
  review: fc.boolean(),
});

/** A run's whole story: its plan, concurrency, the client's attempts, the limits, the model's script and the processes. */
export const budgetScenario = fc.record({
  steps: fc.array(stepSpec, { minLength: 1, maxLength: 5 }),
  concurrency: fc.integer({ min: 1, max: 3 }),
  clientAttempts: fc.integer({ min: 1, max: 3 }),
  maxRequests: fc.integer({ min: 1, max: 8 }),
  maxTokens: fc.option(fc.integer({ min: 20, max: 200 }), { nil: undefined }),
  script: fc.array(attempt, { minLength: 1, maxLength: 12 }),
  processes: fc.array(processSpec, { minLength: 1, maxLength: 3 }),
});

export type Scenario = typeof budgetScenario extends fc.Arbitrary<infer T> ? T : never;

/** Agent steps S0…: each depends on earlier steps only. */
function planOf(steps: Scenario['steps']): Plan {
  return makePlan(
    steps.map((spec, index) =>
      makeStep(`S${index}`, {
        dependsOn: [...new Set(spec.dependsOn.filter((dependency) => dependency < index))].map((dependency) => `S${dependency}`),
        maxAttempts: spec.maxAttempts,
        onFailure: spec.onFailure,
        critical: spec.critical,
        ...(spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs }),
        ...(spec.review ? { review: true } : {}),
      }),
    ),
  );
}

/** The model server, across every process: the requests that reached it, and the tokens it charged a live process. */
export class ModelServer {
  requests = 0;
  promptTokens = 0;
  completionTokens = 0;
  /** Attempts cancelled before they reached the server: the client counts each as a request all the same. */
  phantom = 0;
  /** Attempts the run asked for (each call it made, each retry it let go): the most a journal may count. */
  announced = 0;
  private next = 0;
  constructor(private readonly script: readonly AttemptScript[]) {}

  take(): AttemptScript {
    return this.script[this.next++ % this.script.length]!;
  }
}

/** One process: alive until it is killed or its run is over; then nothing it still has under way sends or receives. */
class Process {
  alive = true;
  /** Writes its disk refused. */
  refused = 0;
  sent = 0;
  onSent: (count: number) => void = () => undefined;
}

const reviewPass = JSON.stringify({ verdict: 'pass', diagnosis: 'fine' });

/**
 * A client that retries as `createOpenAiClient` does: a transient failure or an unreached attempt is tried again up to
 * `maxAttempts`, after a backoff on `clock` and the request's `beforeRetry`; what failed attempts spent goes with the
 * reply (`retriedSpent`) or the error (`LlmError.spent`); a cancelled attempt spent its request.
 */
function retryingClient(server: ModelServer, proc: Process, clock: Clock, maxAttempts: number): LlmClient {
  return {
    model: 'm',
    async chat(request: LlmChatRequest): Promise<LlmChatResponse> {
      let spent: LlmSpent | undefined;
      const spend = (promptTokens: number, completionTokens: number): void => {
        spent = {
          requests: (spent?.requests ?? 0) + 1,
          usage: { promptTokens: (spent?.usage.promptTokens ?? 0) + promptTokens, completionTokens: (spent?.usage.completionTokens ?? 0) + completionTokens },
        };
      };
      const fail = (kind: LlmError['kind'], attempts: number): LlmError => new LlmError(`${kind} after ${attempts} attempts`, kind, undefined, attempts, spent);
      for (let attempt = 1; ; attempt++) {
        if (request.signal.aborted) throw fail('aborted', attempt - 1);
        // A dead process sends nothing.
        if (!proc.alive) throw fail('network', attempt);
        const script = server.take();
        if (script.outcome !== 'unreached') {
          server.requests++;
          proc.sent++;
          proc.onSent(proc.sent);
        }
        try {
          await clock.sleep(script.delayMs, request.signal);
        } catch {
          // Cancelled while out: one that reached the server had its prompt read (a reply streamed part-way), and the
          // client counts its request whether it reached the server or not, as `createOpenAiClient` does.
          const promptTokens = script.outcome === 'unreached' ? 0 : script.promptTokens;
          if (script.outcome === 'unreached') server.phantom++;
          server.promptTokens += promptTokens;
          spend(promptTokens, 0);
          throw fail('aborted', attempt);
        }
        // The reply to a killed process is never received: nothing is charged for it.
        if (!proc.alive) throw fail('network', attempt);
        if (script.outcome === 'ok') {
          server.promptTokens += script.promptTokens;
          server.completionTokens += script.completionTokens;
          const review = request.messages.some((message) => typeof message.content === 'string' && message.content.includes('verdict'));
          return {
            text: review ? reviewPass : 'done',
            toolCalls: [],
            usage: { promptTokens: script.promptTokens, completionTokens: script.completionTokens },
            usageReported: true,
            model: 'm',
            ...(spent === undefined ? {} : { retriedSpent: spent }),
          };
        }
        if (script.outcome === 'transient') {
          server.promptTokens += script.promptTokens;
          server.completionTokens += script.completionTokens;
          spend(script.promptTokens, script.completionTokens);
        }
        if (script.outcome === 'fatal') {
          spend(0, 0);
          throw fail('bad_request', attempt);
        }
        if (attempt >= maxAttempts) throw fail(script.outcome === 'unreached' ? 'network' : 'server', attempt);
        try {
          await clock.sleep(10 * attempt, request.signal);
        } catch {
          throw fail('aborted', attempt);
        }
        await request.beforeRetry?.(spent ?? { requests: 0, usage: { promptTokens: 0, completionTokens: 0 } });
        server.announced++;
      }
    },
  };
}

/**
 * The run store of one process as its fault leaves it: killed, every operation from the `at`-th on fails (and the process
 * sends nothing more); disk full, every write from the `at`-th on is refused, its entries held for the next append.
 */
function faultyStore(store: RunStore, fault: Fault | undefined, proc: Process): RunStore {
  let operations = 0;
  const held: JournalEntry[] = [];
  const guard = async <T>(operation: () => Promise<T>): Promise<T> => {
    if (!proc.alive) throw new Error('the process is gone');
    const index = operations++;
    if (fault?.kind === 'kill' && index === fault.at) {
      if (fault.after) {
        const result = await operation();
        proc.alive = false;
        return result;
      }
      proc.alive = false;
      throw new Error('the process is gone');
    }
    if (fault?.kind === 'diskFull' && index >= fault.at) {
      proc.refused++;
      throw new Error('ENOSPC: no space left on device');
    }
    return operation();
  };
  return {
    ...store,
    append: (runId, entries) =>
      guard(async () => {
        await store.append(runId, [...held, ...entries]);
        held.length = 0;
      }).catch((error: unknown) => {
        held.push(...entries);
        throw error;
      }),
    writeSnapshot: (runId, snapshot) => guard(() => store.writeSnapshot(runId, snapshot)),
    sync: (runId) => guard(() => store.sync(runId)),
  };
}

/** `budget`, counting each call the run makes through its client in `server.announced`. */
function counting(budget: BudgetTracker, server: ModelServer): BudgetTracker {
  const wrap = budget.wrap.bind(budget);
  budget.wrap = (client) => {
    const wrapped = wrap(client);
    return {
      ...wrapped,
      chat: (request) => {
        server.announced++;
        return wrapped.chat(request);
      },
    };
  };
  return budget;
}

export interface Outcome {
  /**
   * For each process: the requests the model had seen when it ended, and before it began; the tokens it had charged before
   * it began; its request limit; whether a process before it was killed or its disk full.
   */
  ends: { sent: number; sentBefore: number; tokensBefore: number; maxRequests: number; cutBefore: boolean }[];
  /** The model use the journal tells, as a new process reads it; `undefined` when the run was never journaled. */
  usage: { requests: number; promptTokens: number; completionTokens: number } | undefined;
  /** A process was killed, or its disk refused a write: the end of the calls it had under way is lost. */
  cut: boolean;
  /** Attempts that may have been journaled and then not sent: one per write a disk refused, one per call a kill cut off. */
  unsent: number;
  server: ModelServer;
}

/** Runs `input`'s plan in its first process, then resumes it in each next one while the journal says it can go on. */
export async function play(input: Scenario): Promise<Outcome> {
  const server = new ModelServer(input.script);
  const store = createMemoryRunStore();
  const outcome: Outcome = { ends: [], usage: undefined, cut: false, unsent: 0, server };
  let maxRequests = input.maxRequests;
  for (const [index, spec] of input.processes.entries()) {
    // At a pause for more budget, the user may raise the request limit (never lowers it), as `--max-requests` does.
    if (index > 0) maxRequests += spec.raiseRequests;
    const before = { sentBefore: server.requests, tokensBefore: server.promptTokens + server.completionTokens, cutBefore: outcome.cut };
    const proc = new Process();
    const clock = new ManualClock(0, { autoAdvance: true });
    const controller = new AbortController();
    if (spec.fault?.kind === 'stop') {
      const at = spec.fault.at;
      proc.onSent = (count) => {
        if (count > at) controller.abort(new Error('Interrupted (Ctrl+C).'));
      };
    }
    const limits: BudgetLimits = { maxRequests, ...(input.maxTokens === undefined ? {} : { maxTokens: input.maxTokens }) };
    const options = {
      llm: retryingClient(server, proc, clock, input.clientAttempts),
      budget: counting(createBudgetTracker(limits), server),
      store: faultyStore(store, spec.fault, proc),
      clock,
      maxConcurrency: input.concurrency,
      signal: controller.signal,
      agentLimits: { timeoutMs: Infinity },
    };
    const handle: RunHandle = index === 0 ? runPlan(planOf(input.steps), { ...options, idSource: () => 'run-b' }) : resumeRun('run-b', options);
    await handle.result;
    outcome.cut ||= !proc.alive || proc.refused > 0;
    // Each refused write, and each call under way when the process was killed, may leave an attempt journaled but not sent.
    outcome.unsent += proc.refused + (proc.alive ? 0 : input.concurrency);
    // The process is over: what it still has under way sends nothing more.
    proc.alive = false;
    outcome.ends.push({ sent: server.requests, maxRequests, ...before });
    // The next process goes on from what the journal says, whatever this one had in memory.
    const stored = await store.load('run-b');
    if (stored === undefined || finalRunStatuses.has(replayJournal('run-b', stored).status)) break;
  }
  const journal = await store.load('run-b');
  if (journal !== undefined) {
    const usage = replayJournal('run-b', journal).modelUsage;
    outcome.usage = { requests: usage?.requests ?? 0, promptTokens: usage?.promptTokens ?? 0, completionTokens: usage?.completionTokens ?? 0 };
  }
  return outcome;
}

/** The property, for one scenario: throws when it does not hold. */
export async function checkBudgetAcrossResumes(input: Scenario): Promise<void> {
  const { ends, usage, cut, unsent, server } = await play(input);
  for (const end of ends) {
    assert.ok(end.sent <= end.maxRequests, `${end.sent} requests reached the model under a limit of ${end.maxRequests} (${JSON.stringify(ends)})`);
    // A token limit reached before a resume (no kill nor full disk having lost what calls spent) holds in it: nothing is sent.
    if (input.maxTokens !== undefined && !end.cutBefore && end.tokensBefore >= input.maxTokens) {
      assert.equal(end.sent, end.sentBefore, `requests sent after ${end.tokensBefore} tokens under a limit of ${input.maxTokens} (${JSON.stringify(ends)})`);
    }
  }
  // A run never journaled cannot be resumed.
  if (usage === undefined) return;
  if (!cut) {
    // Every call ended in a live process that could journal it (a Ctrl+C, a halt and a step's time limit included): the
    // journal tells what the client counted, which is what reached the model and each attempt cancelled before it did.
    assert.deepEqual(usage, { requests: server.requests + server.phantom, promptTokens: server.promptTokens, completionTokens: server.completionTokens });
    return;
  }
  // A kill or a full disk loses the end of the calls then under way: each attempt journaled before it was sent counts as
  // a request, and their tokens are unknown. Never fewer requests than reached the model (what a resumed budget rests
  // on), never more than the run asked for and the attempts journaled and then not sent (the disk did not keep them, or
  // the process died in between); never more tokens than the model charged.
  assert.ok(usage.requests >= server.requests, `the journal counts ${usage.requests} requests, the model saw ${server.requests}`);
  assert.ok(usage.requests <= server.announced + unsent, `the journal counts ${usage.requests} requests, the run asked for ${server.announced} (and ${unsent} maybe unsent)`);
  assert.ok(usage.promptTokens <= server.promptTokens && usage.completionTokens <= server.completionTokens, 'tokens the model never charged');
}

