import assert from 'node:assert/strict';
import { checkboxTicks } from '../../../../src/core/interop/checkboxTicks';
import { importTaskFile } from '../../../../src/core/interop/importTaskFile';
import type { Plan } from '../../../../src/core/plan/planSchema';

const kiro = [
  '# Implementation Plan',
  '- [ ] 1. Storage',
  '  - [ ] 1.1 Model',
  '    - [ ] 1.1.1 Fields',
  '    - [x] 1.1.2 Done already',
  '  - [ ]* 1.2 Optional tests',
  '  - [ ] 1.3 Store',
  '- [ ] 2. Wire it up',
  '',
].join('\n');

function plan(text = kiro, tick = true, file = '.kiro/specs/x/tasks.md'): Plan {
  const imported = importTaskFile(file, text, { model: false, tick });
  assert.ok(imported.ok);
  return imported.plan;
}

/** The keys `checkboxTicks` ticks when `id` completes after `before` did. */
function ticksOf(id: string, before: string[], steps = plan().steps): string[] {
  const step = steps.find((each) => each.id === id)!;
  return checkboxTicks(step, steps, (other) => before.includes(other)).map((target) => target.origin.key ?? target.step.id);
}

describe('checkboxTicks', () => {
  it('ticks a task without sub-tasks as it completes', () => {
    assert.deepEqual(ticksOf('2', ['1', '1.1', '1.1.1', '1.3']), ['2']);
    assert.deepEqual(ticksOf('1.1.1', ['1', '1.1']), ['1.1.1', '1.1']);
  });

  it('leaves a task with sub-tasks left to do unticked, and ticks it with the last of them, innermost first', () => {
    assert.deepEqual(ticksOf('1', []), []);
    assert.deepEqual(ticksOf('1.1', ['1']), []);
    // 1.1.2 is done in the file and 1.2 optional: neither is left to do.
    assert.deepEqual(ticksOf('1.1.1', ['1', '1.1']), ['1.1.1', '1.1']);
    assert.deepEqual(ticksOf('1.3', ['1', '1.1', '1.1.1']), ['1.3', '1']);
    assert.deepEqual(ticksOf('1.3', ['1', '1.1']), ['1.3'], '1.1.1 is left, so 1 waits for it');
  });

  it('does not tick a task above that has not completed, nor any above it', () => {
    assert.deepEqual(ticksOf('1.3', ['1.1', '1.1.1']), ['1.3']);
    assert.deepEqual(ticksOf('1.1.1', ['1']), ['1.1.1']);
  });

  it('ticks nothing for a step whose origin does not ask for ticks, or that has no origin', () => {
    const untick = plan(kiro, false).steps;
    assert.deepEqual(ticksOf('2', [], untick), []);
    const bare = { ...plan().steps[0]!, input: 'Do it' };
    assert.deepEqual(checkboxTicks(bare, [bare], () => true), []);
  });

  it('keeps to the steps of the same task file: another file\'s deeper steps are none of its sub-tasks', () => {
    const own = plan('- [ ] A\n', true, 'a.md').steps;
    const other = plan('- [ ] B\n  - [ ] C\n', true, 'b.md').steps.map((step) => ({ ...step, id: `b${step.id}` }));
    const steps = [...own, ...other];
    assert.deepEqual(checkboxTicks(steps[0]!, steps, () => false).map((target) => target.origin.file), ['a.md']);
  });
});
