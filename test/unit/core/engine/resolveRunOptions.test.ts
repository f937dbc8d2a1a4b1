import assert from 'node:assert/strict';
import { newRunId, resolveRunOptions, toRegistry } from '../../../../src/core/engine/resolveRunOptions';
import type { Tool } from '../../../../src/core/tools/tool';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

const clock = new ManualClock(1_000_000);
const plan = makePlan([makeStep('a')]);
const steps = (count: number) => makePlan(Array.from({ length: count }, (_, index) => makeStep(`S${index}`)));

describe('resolveRunOptions', () => {
  it('fills the documented defaults', () => {
    const resolved = resolveRunOptions(plan, { clock });
    assert.equal(resolved.maxConcurrency, 4);
    assert.equal(resolved.approvalPolicy, 'writesAndCommands');
    assert.equal(resolved.predicateTimeoutMs, 1000);
    assert.equal(resolved.snapshotEvery, 256);
    assert.equal(resolved.noModelHint, 'Set up a model, or change the step to one you do yourself.');
    assert.deepEqual(resolved.tools.names(), []);
    assert.equal(resolved.llm, undefined);
  });

  it('snapshots every 2 × steps events for a plan of more than 128 steps, and as often as asked but at least every event', () => {
    assert.equal(resolveRunOptions(steps(128), { clock }).snapshotEvery, 256);
    assert.equal(resolveRunOptions(steps(200), { clock }).snapshotEvery, 400);
    assert.equal(resolveRunOptions(plan, { clock, snapshotEvery: 10 }).snapshotEvery, 10);
    assert.equal(resolveRunOptions(plan, { clock, snapshotEvery: 0 }).snapshotEvery, 1);
  });

  it('runs at least one step at a time, whole steps only, and refuses a limit that is not a number', () => {
    assert.equal(resolveRunOptions(plan, { clock, maxConcurrency: 0 }).maxConcurrency, 1);
    assert.equal(resolveRunOptions(plan, { clock, maxConcurrency: 2.7 }).maxConcurrency, 2);
    assert.throws(() => resolveRunOptions(plan, { clock, maxConcurrency: Number.POSITIVE_INFINITY }), {
      message: 'maxConcurrency must be a finite number of at least 1, got Infinity.',
    });
    assert.throws(() => resolveRunOptions(plan, { clock, maxConcurrency: Number.NaN }), {
      message: 'maxConcurrency must be a finite number of at least 1, got NaN.',
    });
  });

  it('keeps what the caller chose', () => {
    const resolved = resolveRunOptions(plan, {
      clock,
      approvalPolicy: 'commandsOnly',
      predicateTimeoutMs: 50,
      retryBaseDelayMs: 7,
      retryMaxDelayMs: 70,
      noModelHint: 'Run with --model.',
    });
    assert.deepEqual(
      [resolved.approvalPolicy, resolved.predicateTimeoutMs, resolved.backoff, resolved.noModelHint],
      ['commandsOnly', 50, { baseDelayMs: 7, maxDelayMs: 70 }, 'Run with --model.'],
    );
  });

  it('without a workspace, refuses every file operation with what to do', async () => {
    const { workspace } = resolveRunOptions(plan, { clock });
    assert.equal(workspace.rootLabel, '(no workspace)');
    const expected = {
      message:
        'This run has no workspace folder, so tools cannot reach files: open a folder (or give the command line --workspace DIR), then run the plan again.',
    };
    await assert.rejects(workspace.readText('a.txt'), expected);
    await assert.rejects(workspace.writeText('a.txt', 'x'), expected);
    await assert.rejects(workspace.list('.'), expected);
    await assert.rejects(workspace.stat('a.txt'), expected);
  });

  it('has a logger that takes every level and says nothing', () => {
    const { logger } = resolveRunOptions(plan, { clock });
    for (const level of ['debug', 'info', 'warn', 'error'] as const) assert.equal(logger[level]('quiet'), undefined);
  });
});

describe('newRunId', () => {
  it("takes the caller's id, else makes one from the clock and a random part", () => {
    assert.equal(newRunId({ clock, idSource: () => 'fixed' }), 'fixed');
    const id = newRunId({ clock });
    assert.match(id, new RegExp(`^run-${(1_000_000).toString(36)}-[0-9a-f]{8}$`));
    assert.notEqual(newRunId({ clock }), id);
  });
});

describe('toRegistry', () => {
  it('finds tools by name, the later of two with one name winning, and keeps a registry as it is', () => {
    const tool = (name: string, description: string) => ({ name, description }) as unknown as Tool;
    const registry = toRegistry([tool('read', 'first'), tool('write', 'w'), tool('read', 'second')]);
    assert.deepEqual(registry.names(), ['read', 'write']);
    assert.equal((registry.get('read') as unknown as { description: string }).description, 'second');
    assert.equal(registry.get('missing'), undefined);
    assert.equal(toRegistry(registry), registry);
  });
});
