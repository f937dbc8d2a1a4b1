import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { StepRunner } from '../../../../src/core/engine/runOptions';
import type { RunStore } from '../../../../src/core/runStorePorts';
import { createFileRunStore } from '../../../../src/node/fileRunStore';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

/**
 * A journal in the workspace can be damaged or edited by anyone with access to it. Resume
 * must refuse a journal that is not a consistent history of the run, naming the line,
 * instead of re-running or skipping work on its word.
 */
describe('resumeRun from a damaged or forged journal', () => {
  const plan = makePlan([
    makeStep('a'),
    makeStep('ask', { kind: 'clarification', input: 'Which colour?', dependsOn: ['a'] }),
    makeStep('paint', { input: 'paint {{results.ask}}', dependsOn: ['ask'] }),
  ]);
  let dir: string;
  let store: RunStore;
  let calls: string[];
  const clock = new ManualClock();
  const stepRunner: StepRunner = async (step, ctx) => {
    calls.push(step.id);
    return ctx.input;
  };
  const file = () => join(dir, 'd1.jsonl');
  const lines = (): string[] => readFileSync(file(), 'utf8').trimEnd().split('\n');
  const rewrite = (edited: string[]): void => writeFileSync(file(), `${edited.join('\n')}\n`);
  const resume = () => resumeRun('d1', { store, clock, stepRunner, answers: { ask: 'blue' } }).result;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'damage-'));
    store = createFileRunStore(dir);
    calls = [];
    const first = await runPlan(plan, { store, clock, stepRunner, idSource: () => 'd1' }).result;
    assert.equal(first.status, 'waiting');
    calls = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the undamaged journal resumes (the baseline of every case below)', async () => {
    assert.equal((await resume()).status, 'completed');
    assert.deepEqual(calls, ['paint']);
  });

  it('refuses a duplicated line, naming it', async () => {
    const original = lines();
    rewrite([...original.slice(0, 3), original[2] as string, ...original.slice(3)]);
    await assert.rejects(resume(), /line 4: .*repeats event 3/i);
    assert.deepEqual(calls, []);
  });

  it('refuses a missing middle line, naming where the gap is', async () => {
    const original = lines();
    rewrite([...original.slice(0, 2), ...original.slice(3)]);
    await assert.rejects(resume(), /line 3: .*event 3 is missing/i);
  });

  it('refuses a line of valid JSON that is not a run event', async () => {
    const original = lines();
    for (const bad of ['{"hello":"world"}', '[1,2,3]', '"text"', JSON.stringify({ ...JSON.parse(original[1] as string), stepId: 42 }), JSON.stringify({ ...JSON.parse(original[1] as string), type: 'step_teleported' })]) {
      rewrite([original[0] as string, bad, ...original.slice(2)]);
      await assert.rejects(resume(), /line 2: .*not a run event/i, bad);
    }
  });

  it('refuses an event of another run', async () => {
    const original = lines();
    rewrite([original[0] as string, JSON.stringify({ ...JSON.parse(original[1] as string), runId: 'other' }), ...original.slice(2)]);
    await assert.rejects(resume(), /line 2: .*belongs to run "other"/i);
  });

  /** The journal as a crash before the end left it: without its last line (`run_waiting`) and its final snapshot. */
  const crashed = (): string[] => {
    rmSync(join(dir, 'd1.snapshot.json'));
    return lines().slice(0, -1);
  };
  const forged = (seq: number, body: Record<string, unknown>) => JSON.stringify({ runId: 'd1', seq, time: 99, ...body });

  it('refuses a forged step_completed for a step that never started', async () => {
    const kept = crashed();
    rewrite([...kept, forged(kept.length + 1, { type: 'step_completed', stepId: 'paint', result: 'forged' })]);
    await assert.rejects(resume(), new RegExp(`line ${kept.length + 1}: .*step "paint" completed but was never started`, 'i'));
    assert.deepEqual(calls, []);
  });

  it('refuses a forged step_completed for a step that is not in the plan', async () => {
    const kept = crashed();
    rewrite([...kept, forged(kept.length + 1, { type: 'step_completed', stepId: 'deploy', result: 'forged' })]);
    await assert.rejects(resume(), /names step "deploy", which is not in the plan/i);
  });

  it('refuses events after the run ended, other than a resume', async () => {
    const kept = lines();
    rewrite([...kept, forged(kept.length + 1, { type: 'step_started', stepId: 'paint', attempt: 1 })]);
    await assert.rejects(resume(), /comes after the run ended/i);
  });

  it('refuses a journal that does not begin with the start of the run', async () => {
    rewrite(lines().slice(1).map((line, index) => JSON.stringify({ ...JSON.parse(line), seq: index + 1 })));
    await assert.rejects(resume(), /line 1: .*first event must be run_started/i);
  });

  it('refuses a journal whose last lines were cut off behind its snapshot', async () => {
    rewrite(lines().slice(0, -2));
    await assert.rejects(resume(), /ends at event \d+ but its snapshot is at event \d+, so lines are missing at its end/);
  });

  it('still resumes after a torn last line, with a warning', async () => {
    writeFileSync(file(), `${readFileSync(file(), 'utf8')}{"type":"step_sta`);
    const result = await resume();
    assert.equal(result.status, 'completed');
    assert.ok(result.metadata.warnings.some((warning) => /line \d+ was cut short/.test(warning)));
  });
});
