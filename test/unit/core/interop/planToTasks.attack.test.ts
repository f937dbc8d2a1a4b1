import assert from 'node:assert/strict';
import { exportTaskFile, importTaskFile } from '../../../../src/core/interop/importTaskFile';
import { withStepDefaults, type Plan } from '../../../../src/core/plan/planSchema';

/** A plan of three steps in a chain, each input ending in an origin block whose story labels are `labels[i]`. */
function chain(labels: readonly string[]): Plan {
  const titles = ['First', 'Second', 'Third'];
  return {
    id: 'p',
    version: 1,
    objective: 'Ship',
    createdAt: '2026-01-01T00:00:00.000Z',
    agents: {},
    steps: titles.map((title, index) =>
      withStepDefaults({
        id: `s${index + 1}`,
        kind: 'manual',
        title,
        dependsOn: index === 0 ? [] : [`s${index}`],
        input: `${title}\n\nFrom tasks.md, line ${index + 1}:\n- Story: ${labels[index] ?? 'US1'}`,
      }),
    ),
  };
}

describe('attack: a plan written as a Spec Kit tasks.md', () => {
  for (const label of ['x] [P', 'P', 'US1] [P] [US2', 'a b', '[P]', 'x]']) {
    it(`attack: a story label ${JSON.stringify(label)} in a step's origin cannot mark its task parallel on reading back (it changed what the tasks wait for)`, () => {
      const plan = chain([label, label, label]);
      const text = exportTaskFile(plan, 'speckit');
      const back = importTaskFile('tasks.md', text, { model: false, format: 'speckit' });
      assert.ok(back.ok, text);
      assert.deepEqual(
        back.plan.steps.map((step) => [step.title, step.dependsOn]),
        [
          ['First', []],
          ['Second', ['T001']],
          ['Third', ['T002']],
        ],
        text,
      );
    });
  }

  it('keeps story labels that read back as themselves', () => {
    const text = exportTaskFile(chain(['US1', 'US2, US3', 'US-4']), 'speckit');
    assert.match(text, /- \[ \] T001 \[US1\] First\n- \[ \] T002 \[US2\] \[US3\] Second\n- \[ \] T003 \[US-4\] Third/);
  });
});
