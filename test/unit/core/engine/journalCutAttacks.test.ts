import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { replayJournal } from '../../../../src/core/engine/replayJournal';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { StepRunner } from '../../../../src/core/engine/runOptions';
import { terminalStepStatuses, type RunEvent, type RunState } from '../../../../src/core/engine/runEvents';
import type { Plan } from '../../../../src/core/plan/planSchema';
import type { JournalEntry, JournalSnapshot, LoadedJournal, RunStore } from '../../../../src/core/runStorePorts';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** How one step behaves: its first `failures` attempts throw (deterministic: by attempt number), then it returns. */
interface Behaviour {
  failures: number;
  durationMs: number;
}

interface Scenario {
  plan: Plan;
  behaviour: ReadonlyMap<string, Behaviour>;
  maxConcurrency: number;
  snapshotEvery: number;
}

/**
 * Small random DAGs (dependencies on earlier steps only) with deterministic outcomes. A critical failure halts the run,
 * and which steps were in flight at that moment depends on timing; so critical steps appear only at concurrency 1, where
 * the schedule is a function of the plan alone and a resumed run must end exactly as the uninterrupted one.
 */
const scenarioArbitrary: fc.Arbitrary<Scenario> = fc
  .record({
    size: fc.integer({ min: 1, max: 6 }),
    maxConcurrency: fc.integer({ min: 1, max: 3 }),
    snapshotEvery: fc.integer({ min: 1, max: 6 }),
    steps: fc.array(
      fc.record({
        picks: fc.array(fc.nat(), { maxLength: 3 }),
        failures: fc.integer({ min: 0, max: 3 }),
        maxAttempts: fc.integer({ min: 1, max: 3 }),
        onFailure: fc.constantFrom('stop' as const, 'skip' as const, 'retry' as const),
        critical: fc.boolean(),
        durationMs: fc.integer({ min: 0, max: 5 }),
      }),
      { minLength: 6, maxLength: 6 },
    ),
  })
  .map(({ size, maxConcurrency, snapshotEvery, steps }) => {
    const specs = steps.slice(0, size);
    const planSteps = specs.map((spec, index) => {
      const dependsOn = index === 0 ? [] : [...new Set(spec.picks.map((pick) => `S${pick % index}`))];
      return makeStep(`S${index}`, {
        dependsOn,
        input: `do S${index} with ${dependsOn.map((dependency) => `{{results.${dependency}}}`).join(' ')}`,
        maxAttempts: spec.maxAttempts,
        onFailure: spec.onFailure,
        critical: maxConcurrency === 1 && spec.critical,
      });
    });
    const behaviour = new Map(specs.map((spec, index) => [`S${index}`, { failures: spec.failures, durationMs: spec.durationMs }]));
    return { plan: makePlan(planSteps), behaviour, maxConcurrency, snapshotEvery };
  });

/**
 * Found by this attack (seed 173787993): S5 waits on S1 and S2, both fail for good; uninterrupted, S2 fails first, but
 * after a crash past S0 both start again at once and fail together, so the resumed run may name S1 as S5's reason.
 */
const twoDependenciesFailingTogether: Scenario = (() => {
  const specs: [id: string, dependsOn: string[], onFailure: 'stop' | 'retry', maxAttempts: number, failures: number, durationMs: number][] = [
    ['S0', [], 'stop', 1, 0, 2],
    ['S1', ['S0'], 'stop', 2, 2, 4],
    ['S2', [], 'retry', 1, 2, 4],
    ['S3', [], 'stop', 1, 0, 0],
    ['S4', [], 'stop', 1, 0, 0],
    ['S5', ['S2', 'S1'], 'stop', 1, 0, 0],
  ];
  const steps = specs.map(([id, dependsOn, onFailure, maxAttempts]) =>
    makeStep(id, { dependsOn, onFailure, maxAttempts, critical: false, input: `do ${id} with ${dependsOn.map((dependency) => `{{results.${dependency}}}`).join(' ')}` }),
  );
  const behaviour = new Map(specs.map(([id, , , , failures, durationMs]) => [id, { failures, durationMs }]));
  return { plan: makePlan(steps), behaviour, maxConcurrency: 2, snapshotEvery: 1 };
})();

/** A step runner whose every call is counted (the step's "effect"), and whose result depends only on its input. */
function countingRunner(behaviour: ReadonlyMap<string, Behaviour>, clock: ManualClock, calls: Map<string, number>): StepRunner {
  return async (step, ctx) => {
    const spec = behaviour.get(step.id) ?? { failures: 0, durationMs: 0 };
    await clock.sleep(spec.durationMs, ctx.signal);
    calls.set(step.id, (calls.get(step.id) ?? 0) + 1);
    if (ctx.attempt <= spec.failures) throw new Error(`planned failure of ${step.id} at attempt ${ctx.attempt}`);
    return `${step.id}[${ctx.input}]`;
  };
}

/** A store that records every snapshot it is given (as a real store would have persisted it: JSON). */
function recordingStore(inner: RunStore, snapshots: JournalSnapshot[]): RunStore {
  return {
    ...inner,
    async writeSnapshot(runId, snapshot) {
      snapshots.push(JSON.parse(JSON.stringify(snapshot)) as JournalSnapshot);
      await inner.writeSnapshot(runId, snapshot);
    },
  };
}

/** A memory store seeded with `entries` (and a snapshot), whose first load also reports `tornLine`, as a file store would after a crash mid-line. */
async function seededStore(
  runId: string,
  entries: readonly JournalEntry[],
  snapshot: JournalSnapshot | undefined,
  tornLine?: LoadedJournal['tornLine'],
): Promise<RunStore> {
  const inner = createMemoryRunStore();
  await inner.append(
    runId,
    entries.map((entry) => JSON.parse(JSON.stringify(entry)) as JournalEntry),
  );
  if (snapshot) await inner.writeSnapshot(runId, snapshot);
  let torn = tornLine;
  return {
    ...inner,
    async load(id) {
      const loaded = await inner.load(id);
      const result = loaded && torn ? { ...loaded, tornLine: torn } : loaded;
      // The file store cuts the torn tail before its next append: it is reported once.
      torn = undefined;
      return result;
    },
  };
}

/**
 * What must be the same after any crash and resume: every step's end and result, and the run's. One thing a resume cannot
 * keep is timing: steps in flight at the crash start again together, so when two dependencies of a step both fail, which
 * failed first (and is named in "dependency X failed") may change. Such a reason must name one of them; any other is kept.
 */
function outcome(state: RunState): unknown {
  const steps = Object.fromEntries(
    Object.values(state.steps)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((step) => [
        step.id,
        { status: step.status, result: step.result, error: step.error, reason: skipReason(state, step.id), skipCause: step.skipCause, attempts: step.attempts },
      ]),
  );
  return { status: state.status, reason: state.reason, steps, results: state.results };
}

/** A step's reason, with the dependency it names left out when several of its dependencies ended without completing. */
function skipReason(state: RunState, stepId: string): string | undefined {
  const step = state.steps[stepId];
  if (step?.skipCause !== 'dependency') return step?.reason;
  const dependencies = state.plan?.steps.find((candidate) => candidate.id === stepId)?.dependsOn ?? [];
  const notCompleted = dependencies.filter((dependency) => state.steps[dependency]?.status !== 'completed');
  if (notCompleted.length < 2) return step.reason;
  const named = /^dependency (\S+) (failed|was rejected|was skipped)$/.exec(step.reason ?? '');
  const via = state.steps[named?.[1] ?? ''];
  assert.ok(named && via && notCompleted.includes(via.id), `${stepId} was skipped for "${step.reason}", not one of its dependencies ${notCompleted.join(', ')}`);
  const failed = via.status === 'failed' || via.skipCause === 'failed';
  assert.equal(named[2], failed ? 'failed' : 'was skipped', `${stepId}: "${step.reason}" words how ${via.id} ended otherwise`);
  return 'dependency (one of several that did not complete) ended';
}

function finishedIn(entries: readonly JournalEntry[]): Set<string> {
  const state = replayJournal('cut', { entries: [...entries] });
  return new Set(
    Object.values(state.steps)
      .filter((step) => terminalStepStatuses.has(step.status))
      .map((step) => step.id),
  );
}

/** The resumed run's own events respect the plan: no finished step starts again, no step before its dependencies, none past the limit. */
function checkResumedEvents(plan: Plan, events: readonly RunEvent[], finished: ReadonlySet<string>, maxConcurrency: number): void {
  const completed = new Set([...finished]);
  const active = new Set<string>();
  const dependencies = new Map(plan.steps.map((step) => [step.id, step.dependsOn]));
  for (const event of events) {
    if (event.type === 'step_started') {
      assert.ok(!finished.has(event.stepId), `${event.stepId} finished before the crash and started again after it`);
      for (const dependency of dependencies.get(event.stepId) ?? [])
        assert.ok(completed.has(dependency), `${event.stepId} started before ${dependency} completed`);
      active.add(event.stepId);
      assert.ok(active.size <= maxConcurrency, `more than ${maxConcurrency} steps ran at once`);
    }
    if (event.type === 'step_completed') completed.add(event.stepId);
    if (event.type === 'step_completed' || event.type === 'step_skipped' || (event.type === 'step_failed' && event.disposition !== 'retry'))
      active.delete(event.stepId);
  }
}

async function uninterrupted(
  scenario: Scenario,
): Promise<{ entries: JournalEntry[]; snapshots: JournalSnapshot[]; state: RunState; calls: Map<string, number> }> {
  const clock = new ManualClock(0, { autoAdvance: true });
  const calls = new Map<string, number>();
  const snapshots: JournalSnapshot[] = [];
  const store = createMemoryRunStore();
  const handle = runPlan(scenario.plan, {
    clock,
    store: recordingStore(store, snapshots),
    idSource: () => 'cut',
    maxConcurrency: scenario.maxConcurrency,
    snapshotEvery: scenario.snapshotEvery,
    retryBaseDelayMs: 2,
    stepRunner: countingRunner(scenario.behaviour, clock, calls),
  });
  await handle.result;
  const journal = await store.load('cut');
  assert.ok(journal);
  return { entries: journal.entries.map((entry) => JSON.parse(JSON.stringify(entry)) as JournalEntry), snapshots, state: handle.state(), calls };
}

async function resumeFrom(scenario: Scenario, store: RunStore): Promise<{ state: RunState; events: RunEvent[]; calls: Map<string, number> }> {
  const clock = new ManualClock(1_000_000, { autoAdvance: true });
  const calls = new Map<string, number>();
  const events: RunEvent[] = [];
  const handle = resumeRun('cut', {
    clock,
    store,
    maxConcurrency: scenario.maxConcurrency,
    snapshotEvery: scenario.snapshotEvery,
    retryBaseDelayMs: 2,
    stepRunner: countingRunner(scenario.behaviour, clock, calls),
  });
  handle.events.subscribe((event) => events.push(event));
  await handle.result;
  return { state: handle.state(), events, calls };
}

/** The newest snapshot a crash after line `cut` could have left: a snapshot is written after the lines it covers. */
function snapshotAt(snapshots: readonly JournalSnapshot[], cut: number): JournalSnapshot | undefined {
  return snapshots.filter((snapshot) => snapshot.seq <= cut).at(-1);
}

describe('attack: a journal cut at every line (and torn, and cut again after a resume) against exactly-once and the same end', () => {
  it('property: resumed from any prefix (with its snapshot, with a torn next line), finished steps never run again, the rest run as often as uninterrupted, and every step ends the same', async function () {
    this.timeout(60_000);
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary, fc.boolean(), async (scenario, withSnapshot) => {
        const full = await uninterrupted(scenario);
        const expected = outcome(full.state);
        for (let cut = 1; cut <= full.entries.length; cut++) {
          const prefix = full.entries.slice(0, cut);
          const finished = finishedIn(prefix);
          const next = full.entries[cut];
          const torn =
            next === undefined
              ? undefined
              : { lineNumber: cut + 1, text: JSON.stringify(next).slice(0, Math.max(1, Math.floor(JSON.stringify(next).length / 2))) };
          for (const tornLine of torn === undefined ? [undefined] : [undefined, torn]) {
            const store = await seededStore('cut', prefix, withSnapshot ? snapshotAt(full.snapshots, cut) : undefined, tornLine);
            const resumed = await resumeFrom(scenario, store);
            const where = `cut after line ${cut} of ${full.entries.length}${tornLine ? ' (next line torn)' : ''}`;
            assert.deepEqual(outcome(resumed.state), expected, `${where}: the resumed run ended otherwise than the uninterrupted one`);
            for (const step of scenario.plan.steps) {
              const again = resumed.calls.get(step.id) ?? 0;
              if (finished.has(step.id)) assert.equal(again, 0, `${where}: ${step.id} had finished and ran again`);
              else
                assert.equal(
                  again,
                  full.calls.get(step.id) ?? 0,
                  `${where}: ${step.id} ran ${again} times after the resume, ${full.calls.get(step.id) ?? 0} uninterrupted`,
                );
            }
            checkResumedEvents(scenario.plan, resumed.events, finished, scenario.maxConcurrency);
            const journal = await store.load('cut');
            assert.ok(journal);
            assert.deepEqual(outcome(replayJournal('cut', journal)), expected, `${where}: the resumed journal folds to another end`);
            if (tornLine)
              assert.ok(
                resumed.state.warnings.some((warning) => /cut short/.test(warning)),
                `${where}: the torn line is not reported`,
              );
          }
        }
      }),
      { numRuns: 40, examples: [[twoDependenciesFailingTogether, false]] },
    );
  });

  it('property: a resumed run cut again at any of its own lines and resumed once more still ends the same, nothing finished running again', async function () {
    this.timeout(60_000);
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary, fc.nat(), async (scenario, pick) => {
        const full = await uninterrupted(scenario);
        const expected = outcome(full.state);
        const firstCut = 1 + (pick % full.entries.length);
        const store = await seededStore('cut', full.entries.slice(0, firstCut), undefined);
        await resumeFrom(scenario, store);
        const second = await store.load('cut');
        assert.ok(second);
        for (let cut = firstCut + 1; cut <= second.entries.length; cut++) {
          const prefix = second.entries.slice(0, cut);
          const finished = finishedIn(prefix);
          const again = await resumeFrom(scenario, await seededStore('cut', prefix, undefined));
          const where: string = `first cut after line ${firstCut}, second after line ${cut} of ${second.entries.length}`;
          assert.deepEqual(outcome(again.state), expected, `${where}: the twice-resumed run ended otherwise`);
          for (const id of finished) assert.equal(again.calls.get(id) ?? 0, 0, `${where}: ${id} had finished and ran again`);
          checkResumedEvents(scenario.plan, again.events, finished, scenario.maxConcurrency);
        }
      }),
      { numRuns: 40, examples: [[twoDependenciesFailingTogether, 0]] },
    );
  });
});
