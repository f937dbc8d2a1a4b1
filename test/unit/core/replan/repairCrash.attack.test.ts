/*
 * PROMISE UNDER ATTACK (1): a run that a repair plan repaired (executeWithReplanning: a step with onFailure 'replan'
 * fails, the model gives a repair plan, a new run `<id>-replan-N` continues, keeping completed steps' results) never
 * redoes finished work, never applies a change twice, and after a crash at ANY point (between any two journal appends)
 * resumes (resumeWithReplanning) to the same final files and the same final status as the uninterrupted run.
 *
 * A crash is simulated as the existing journal-cut attacks do: every line the uninterrupted execution journaled (over all
 * of its runs, in the order they were appended) is recorded; a crash after line k leaves each run's journal with its lines
 * among the first k. The run resumed is the newest run with a journal (the one the host remembers as started last).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import type { StepRunner } from '../../../../src/core/engine/runOptions';
import type { RunResult } from '../../../../src/core/engine/runOptions';
import { executeWithReplanning, resumeWithReplanning } from '../../../../src/core/replan/executeWithReplanning';
import type { JournalEntry, RunStore } from '../../../../src/core/runStorePorts';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';
import { repairReplanner, repairScenarios, type RepairScenario } from '../../../support/repairScenarios';

type Scenario = RepairScenario;

const scenarioArbitrary = repairScenarios(true);

/** Workspace of the fake steps: each completed step writes `<id>.txt` and appends its id to `log` (a change made twice shows). */
interface World {
  files: Map<string, string>;
  calls: Map<string, number>;
}

function stepRunnerIn(world: World, clock: ManualClock): StepRunner {
  return async (step, ctx) => {
    await clock.sleep(1, ctx.signal);
    world.calls.set(step.id, (world.calls.get(step.id) ?? 0) + 1);
    if (step.id.startsWith('bad')) throw new Error(`${step.id} broke`);
    world.files.set(`${step.id}.txt`, `${step.id}[${ctx.input}]`);
    world.files.set('log', `${world.files.get('log') ?? ''}${step.id};`);
    return `${step.id}[${ctx.input}]`;
  };
}

/** A store that records, in order, every line it was given, over every run. */
function recordingStore(inner: RunStore, lines: JournalEntry[], appendEnds: number[]): RunStore {
  return {
    ...inner,
    async append(runId, entries) {
      for (const entry of entries) lines.push(JSON.parse(JSON.stringify(entry)) as JournalEntry);
      if (entries.length > 0) appendEnds.push(lines.length);
      await inner.append(runId, entries);
    },
  };
}

function summary(result: RunResult, world: World): unknown {
  return {
    status: result.status,
    runId: result.runId,
    results: result.results,
    replanCount: result.metadata.replanCount,
    files: Object.fromEntries([...world.files].sort(([a], [b]) => a.localeCompare(b)).filter(([path]) => path !== 'log')),
    // What the workspace holds at the end, each step's change once.
    log: (world.files.get('log') ?? '').split(';').filter(Boolean).sort(),
  };
}

async function uninterrupted(scenario: Scenario) {
  const clock = new ManualClock(0, { autoAdvance: true });
  const world: World = { files: new Map(), calls: new Map() };
  const lines: JournalEntry[] = [];
  const appendEnds: number[] = [];
  const result = await executeWithReplanning(scenario.plan, 'test objective', {
    clock,
    store: recordingStore(createMemoryRunStore(), lines, appendEnds),
    idSource: () => 'X',
    maxConcurrency: 1,
    replanner: repairReplanner(scenario),
    stepRunner: stepRunnerIn(world, clock),
  });
  return { result, world, lines, appendEnds };
}

/**
 * The workspace after a crash after line `cut`: the files of the steps whose completion the journals hold, or that ran
 * before (a step that ran and crashed before its completion was journaled made its change: it is in the world).
 */
async function crashAndResume(scenario: Scenario, lines: readonly JournalEntry[], cut: number) {
  const prefix = lines.slice(0, cut);
  const store = createMemoryRunStore();
  for (const entry of prefix) await store.append(entry.runId, [entry]);
  const newest = prefix.at(-1)!.runId;
  // Reconstruct the world at the crash: replay the uninterrupted execution's effects up to the cut.
  const world: World = { files: new Map(), calls: new Map() };
  const completedBefore = new Set<string>();
  for (const entry of prefix) {
    if (entry.type === 'step_completed' && entry['restored'] !== true) {
      completedBefore.add(String(entry['stepId']));
      world.files.set(`${String(entry['stepId'])}.txt`, String(entry['result']));
      world.files.set('log', `${world.files.get('log') ?? ''}${String(entry['stepId'])};`);
    }
  }
  const afterCrash: World = { files: world.files, calls: new Map() };
  const clock = new ManualClock(1_000_000, { autoAdvance: true });
  const result = await resumeWithReplanning(newest, {
    clock,
    store,
    maxConcurrency: 1,
    replanner: repairReplanner(scenario),
    stepRunner: stepRunnerIn(afterCrash, clock),
  });
  return { result, world: afterCrash, completedBefore, newest, prefix };
}

describe('attack: a repaired run crashed at any journal line resumes to the uninterrupted end, nothing finished done again', () => {
  /** Cuts at every line (as journalCutAttacks does: a torn batch, a power loss) or only where an append ended (a process killed). */
  const property = (cuts: 'line' | 'append') =>
    fc.asyncProperty(scenarioArbitrary, async (scenario) => {
      const full = await uninterrupted(scenario);
      assert.equal(full.result.status, 'completed', `uninterrupted: ${full.result.metadata.reason}`);
      assert.equal(full.result.metadata.replanCount, scenario.repairs);
      const expected = summary(full.result, full.world);
      const points = cuts === 'line' ? full.lines.map((_, index) => index + 1) : full.appendEnds;
      for (const cut of points) {
        const resumed = await crashAndResume(scenario, full.lines, cut);
        const where = `cut after line ${cut} of ${full.lines.length} (${full.lines[cut - 1]?.runId} #${full.lines[cut - 1]?.seq} ${full.lines[cut - 1]?.type})`;
        for (const id of resumed.completedBefore) assert.equal(resumed.world.calls.get(id) ?? 0, 0, `${where}: ${id} had completed and ran again`);
        assert.deepEqual(summary(resumed.result, resumed.world), expected, `${where}: resumed from ${resumed.newest}, the execution ended otherwise`);
      }
    });

  it('property: cut after ANY journal line of the chain (1–3 repairs), between its runs too, resumeWithReplanning ends with the same status, results and files; no completed step runs again', async function () {
    this.timeout(120_000);
    await fc.assert(property('line'), { numRuns: 40 });
  });

  it('property: cut where an append ended in the chain (1–3 repairs), between its runs too, resumeWithReplanning ends the same; no completed step runs again', async function () {
    this.timeout(120_000);
    await fc.assert(property('append'), { numRuns: 60 });
  });

  // Broke (2026-12-07): the failed run was final, so nothing resumed into its repair; the user had to plan again.
  it('a crash after the failed run ended and before its repair run started still gets the repair: same status and files as uninterrupted', async () => {
    const scenario: Scenario = {
      plan: makePlan([makeStep('S0'), makeStep('bad1', { dependsOn: ['S0'], onFailure: 'replan' })]),
      specs: [{ id: 'S0', dependsOn: [] }],
      badDependsOn: ['S0'],
      repairs: 1,
      inputs: true,
    };
    const full = await uninterrupted(scenario);
    assert.equal(full.result.status, 'completed');
    const cut = full.lines.findIndex((line) => line.runId === 'X-replan-1');
    assert.ok(cut > 0 && full.lines[cut - 1]?.type === 'run_failed', 'the failed run journals its end before the repair run starts');
    // The process dies while the replanner is asked (nothing of that is journaled): X ended failed, X-replan-1 has no journal.
    const resumed = await crashAndResume(scenario, full.lines, cut);
    assert.equal(resumed.newest, 'X');
    assert.deepEqual(summary(resumed.result, resumed.world), summary(full.result, full.world), 'resumed, the execution must still be repaired and complete');
  });
});
