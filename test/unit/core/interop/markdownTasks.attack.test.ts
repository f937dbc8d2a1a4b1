import assert from 'node:assert/strict';
import { exportTaskFile, importTaskFile } from '../../../../src/core/interop/importTaskFile';
import { withStepDefaults, type Plan } from '../../../../src/core/plan/planSchema';

/** An HTML block a note opens (CommonMark's kinds 1–5), and what ends it: a renderer shows nothing of it up to there. */
const openers = [
  { opens: '<!-- reviewed by ops', closer: '-->' },
  { opens: '<style>', closer: '</style>' },
  { opens: '  <script type="text/plain">', closer: '</script>' },
  { opens: '<?php', closer: '?>' },
  { opens: '<!DOCTYPE html', closer: '>' },
  { opens: '<![CDATA[', closer: ']]>' },
] as const;

function planWith(notes: string): Plan {
  return {
    id: 'p',
    version: 1,
    objective: `Ship\n\n${notes}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    agents: {},
    steps: [
      withStepDefaults({ id: 'a', kind: 'manual', title: 'Delete the staging database' }),
      withStepDefaults({ id: 'b', kind: 'manual', title: 'Announce it', dependsOn: ['a'] }),
    ],
  };
}

const formats = [
  { format: 'speckit', path: 'tasks.md', firstTask: /^- \[ \] T001 / },
  { format: 'kiro', path: '.kiro/specs/x/tasks.md', firstTask: /^- \[ \] 1\. / },
  { format: 'checklist', path: 'todo.md', firstTask: /^- \[ \] Delete/ },
  { format: 'copilot', path: 'plan-x.prompt.md', firstTask: /^### Steps$/ },
] as const;

describe('attack: a plan\'s objective exported into another tool\'s Markdown task file', () => {
  for (const { format, path, firstTask } of formats) {
    for (const { opens, closer } of openers) {
      it(`attack: ${format}: a note opening ${JSON.stringify(opens)} and never closing it does not hide the tasks after it where the file is rendered`, () => {
        const text = exportTaskFile(planWith(`Context.\n${opens}\nsecret plans`), format);
        const lines = text.split('\n');
        const start = lines.findIndex((line) => line.trimStart().replace(/^\\/, '') === opens.trimStart());
        const first = lines.findIndex((line) => firstTask.test(line));
        assert.ok(start >= 0 && first > start, text);
        // Either the line opens no block (its `<` escaped), or the block ends before the first task.
        const opensBlock = /^ {0,3}</.test(lines[start]!);
        assert.ok(
          !opensBlock || lines.slice(start, first).some((line, index) => (index === 0 ? line.slice(opens.length) : line).includes(closer)),
          `the block is still open at the first task:\n${text}`,
        );
        // It reads back with the same tasks, and writes the same file again.
        const back = importTaskFile(path, text, { model: false, format });
        assert.ok(back.ok);
        assert.deepEqual(back.plan.steps.map((step) => step.title), ['Delete the staging database', 'Announce it']);
        assert.equal(exportTaskFile(back.plan, format), text);
      });
    }
  }

  for (const { format, path, firstTask } of formats) {
    it(`attack: ${format}: a fence line inside a closed HTML comment of a note does not make the export open a code block before the tasks`, () => {
      const text = exportTaskFile(planWith('<!--\n```\n-->'), format);
      const lines = text.split('\n');
      const first = lines.findIndex((line) => firstTask.test(line));
      const end = lines.indexOf('-->');
      assert.ok(end >= 0 && first > end, text);
      // A renderer is outside the comment after `-->`: any fence line from there to the first task opens a code block.
      assert.deepEqual(lines.slice(end, first).filter((line) => /^\s*(```|~~~)/.test(line)), [], text);
      const back = importTaskFile(path, text, { model: false, format });
      assert.ok(back.ok);
      assert.equal(back.plan.steps.length, 2);
      assert.equal(exportTaskFile(back.plan, format), text);
    });
  }

  it('leaves a note\'s HTML block that closes itself as it is', () => {
    const text = exportTaskFile(planWith('<!-- a note -->\n<details>\n\nMore\n\n</details>'), 'checklist');
    assert.match(text, /^# Ship\n\n<!-- a note -->\n<details>\n\nMore\n\n<\/details>\n\n- \[ \] Delete/);
  });
});
