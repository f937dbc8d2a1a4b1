import assert from 'node:assert/strict';
import { splitDependsOn } from '../../../../src/core/interop/sourceTasks';
import { importTaskFile } from '../../../../src/core/interop/importTaskFile';

// Attacks on the "(depends on …)" words of a task line: reading them must cost time linear in the line.
describe('attack: dependency words of a task file', () => {
  it('attack: "depends on aandaand…" that does not end the line is read in linear time (it was exponential: 22 repeats took 0.2 s, 40 would take hours)', () => {
    // A size that finishes at once when linear and never when exponential: no time is measured.
    const line = `Ship it depends on ${'aand'.repeat(60)} !`;
    assert.deepEqual(splitDependsOn(line), { text: line });
    const file = `# Tasks\n- [ ] T001 first\n- [ ] T002 ${line}\n- [ ] T003 last (depends on ${'aand'.repeat(60)}x)\n`;
    const imported = importTaskFile('tasks.md', file, { model: false, format: 'speckit' });
    assert.ok(imported.ok);
    assert.deepEqual(
      imported.plan.steps.map((step) => step.dependsOn),
      [[], ['T001'], ['T002']],
    );
    assert.match(imported.warnings.join('\n'), /depends on aand/);
  });

  it('attack: keys joined by "and" and "," are still read, the words between spaces', () => {
    assert.deepEqual(splitDependsOn('Ship (depends on T012, T013)'), { text: 'Ship', dependsOn: ['T012', 'T013'] });
    assert.deepEqual(splitDependsOn('Ship *depends on 2 and 3*'), { text: 'Ship', dependsOn: ['2', '3'] });
    assert.deepEqual(splitDependsOn('Ship (depends on T1,T2 and T3)'), { text: 'Ship', dependsOn: ['T1', 'T2', 'T3'] });
    assert.deepEqual(splitDependsOn('Ship (depends on none)'), { text: 'Ship', dependsOn: [] });
    // A key that is letters of "and" is one key, not split.
    assert.deepEqual(splitDependsOn('Ship (depends on aand)'), { text: 'Ship', dependsOn: ['aand'] });
  });

  it('attack: long runs of separators, spaces and "and"s are read in linear time', () => {
    for (const line of [
      `x depends on a${' and'.repeat(20_000)} !`,
      `x depends on a${' '.repeat(20_000)}and${' '.repeat(20_000)}!`,
      `x depends on a${' , '.repeat(20_000)}!`,
      `x${' depends on'.repeat(5_000)}!`,
      `(depends on ${'('.repeat(20_000)}`,
    ]) {
      assert.equal(splitDependsOn(line).text, line);
    }
  });
});
