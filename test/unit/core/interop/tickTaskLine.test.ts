import assert from 'node:assert/strict';
import fc from 'fast-check';
import { importTaskFile } from '../../../../src/core/interop/importTaskFile';
import { readOrigin, type SourceOrigin } from '../../../../src/core/interop/sourceOrigin';
import { tickTaskLine } from '../../../../src/core/interop/tickTaskLine';

const origin = (line: number, key?: string): SourceOrigin => ({
  file: 'specs/001/tasks.md',
  line,
  ...(key !== undefined ? { key } : {}),
  section: [],
  depth: 0,
  labels: [],
  requirements: [],
  parallel: false,
  optional: false,
  tick: true,
});

const specKit = ['# Tasks', '', '- [ ] T001 Create the project', '- [ ] T002 [P] Add src/a.ts', '- [ ] T003 Wire it up', ''].join('\n');

describe('tickTaskLine', () => {
  it('ticks the box on the line the task came from and nothing else', () => {
    const ticked = tickTaskLine(specKit, origin(4, 'T002'), 'Add src/a.ts');
    assert.deepEqual(ticked, { ok: true, line: 4, text: specKit.replace('- [ ] T002', '- [x] T002') });
  });

  it('finds the task by its key when lines were added above it since the import', () => {
    const edited = specKit.replace('# Tasks\n', '# Tasks\n\nA note the user added.\n');
    const ticked = tickTaskLine(edited, origin(4, 'T002'), 'Add src/a.ts');
    assert.equal(ticked.ok && ticked.line, 6);
    assert.equal(ticked.ok && ticked.text, edited.replace('- [ ] T002', '- [x] T002'));
  });

  it('does not take T0021 or a mention in another task for T002', () => {
    const text = ['- [ ] T0021 Other', '- [ ] T005 Follow up on T002 later', '- [ ] T003 x'].join('\n');
    const ticked = tickTaskLine(text, origin(1, 'T002'), 'Add src/a.ts');
    assert.equal(ticked.ok, false);
    assert.match(!ticked.ok ? ticked.problem : '', /specs\/001\/tasks\.md has no checkbox for task T002 any more \(it was on line 1\)/);
  });

  it('matches a keyless task by its title, and refuses when two lines hold it', () => {
    const text = '- [ ] Write docs\n- [ ] Ship\n';
    assert.deepEqual(tickTaskLine(text, origin(9), 'Ship'), { ok: true, line: 2, text: '- [ ] Write docs\n- [x] Ship\n' });
    const twice = '- [ ] Ship\n- [ ] Ship\n';
    const refused = tickTaskLine(twice, origin(9), 'Ship');
    assert.equal(refused.ok, false);
    assert.match(!refused.ok ? refused.problem : '', /2 checkboxes for the task "Ship" \(lines 1, 2\); none was ticked/);
  });

  it('keeps a byte order mark and each line ending as they were', () => {
    const text = '\uFEFF- [ ] T001 First\r\n- [ ] T002 Second\n- [ ] T003 Third\r\n';
    const ticked = tickTaskLine(text, origin(1, 'T001'), 'First');
    assert.equal(ticked.ok && ticked.text, '\uFEFF- [x] T001 First\r\n- [ ] T002 Second\n- [ ] T003 Third\r\n');
    const second = tickTaskLine(text, origin(2, 'T002'), 'Second');
    assert.equal(second.ok && second.text, '\uFEFF- [ ] T001 First\r\n- [x] T002 Second\n- [ ] T003 Third\r\n');
  });

  it('leaves a task already ticked (either case) as it is', () => {
    const text = '- [X] T001 Done\n';
    assert.deepEqual(tickTaskLine(text, origin(1, 'T001'), 'Done'), { ok: true, line: 1, text });
  });

  it('ticks a Kiro task by its number, the optional mark and numbered bullets kept', () => {
    const text = '- [ ]* 2.1 Write unit tests\n  - _Requirements: 1.2_\n1. [ ] 3 Deploy\n';
    const ticked = tickTaskLine(text, origin(1, '2.1'), 'Write unit tests');
    assert.equal(ticked.ok && ticked.text, text.replace('- [ ]* 2.1', '- [x]* 2.1'));
    const numbered = tickTaskLine(text, origin(3, '3'), 'Deploy');
    assert.equal(numbered.ok && numbered.text, text.replace('1. [ ] 3', '1. [x] 3'));
  });

  it('refuses a line that is no checkbox any more, such as a task turned into a heading', () => {
    const ticked = tickTaskLine('## T001 Create the project\n', origin(1, 'T001'), 'Create the project');
    assert.equal(ticked.ok, false);
  });

  it('ticks the last of 5,000 tasks after lines moved, in one pass', () => {
    const lines = Array.from({ length: 5000 }, (_, index) => `- [ ] T${String(index + 1).padStart(4, '0')} Task ${index + 1}`);
    const text = `# Big\n\n${lines.join('\n')}\n`;
    const ticked = tickTaskLine(text, origin(1, 'T5000'), 'Task 5000');
    assert.equal(ticked.ok && ticked.line, 5002);
    assert.equal(ticked.ok && ticked.text.split('\n')[5001], '- [x] T5000 Task 5000');
  });

  it('writes nothing of a task line into the text but the box: escapes and HTML stay as the file had them', () => {
    const evil = '- [ ] T001 Clean \u001b[2J\u001b]8;;http://x\u0007<script>alert(1)</script>\n';
    const ticked = tickTaskLine(evil, origin(1, 'T001'), 'anything');
    assert.equal(ticked.ok && ticked.text, evil.replace('[ ]', '[x]'));
  });

  it('reads back what an import marked to tick: each open task, never one done in the file', () => {
    const imported = importTaskFile('tasks.md', '- [x] T001 Done\n- [ ] T002 Open\n', { model: false, tick: true });
    assert.ok(imported.ok);
    const origins = imported.plan.steps.map((step) => readOrigin(step.input ?? '').origin);
    assert.deepEqual(
      origins.map((found) => found?.tick),
      [false, true],
    );
    const plain = importTaskFile('tasks.md', '- [ ] T002 Open\n', { model: false });
    assert.equal(plain.ok && readOrigin(plain.plan.steps[0]!.input ?? '').origin?.tick, false);
  });

  it('never ticks another task whose text merely contains a keyless task\'s title, even on the task\'s own line', () => {
    // "Ship" was on line 2; the user put "Ship docs" there since.
    const text = '- [ ] Write docs\n- [ ] Ship docs\n- [ ] Ship (depends on S1)\n';
    assert.deepEqual(tickTaskLine(text, origin(2), 'Ship'), { ok: true, line: 3, text: text.replace('- [ ] Ship (', '- [x] Ship (') });
    const onlyLonger = tickTaskLine('- [ ] Ship docs\n', origin(1), 'Ship');
    assert.equal(onlyLonger.ok, false);
  });

  it('never takes Kiro sub-task 1.1 for task 1: a moved task 1 is still found, and ticked alone', () => {
    const text = '# Tasks\n- [ ] 1. Parent\n  - [ ] 1.1 Child\n    - [ ] 1.1.1 Grandchild\n';
    // The heading was deleted: line 2 now holds 1.1.
    const moved = text.replace('# Tasks\n', '');
    assert.deepEqual(tickTaskLine(moved, origin(2, '1'), 'Parent'), { ok: true, line: 1, text: moved.replace('- [ ] 1.', '- [x] 1.') });
    // A line was added: 1.1 is found on its own, not mistaken for 1.1.1.
    const added = text.replace('# Tasks\n', '# Tasks\n\n');
    assert.deepEqual(tickTaskLine(added, origin(3, '1.1'), 'Child'), { ok: true, line: 4, text: added.replace('- [ ] 1.1 ', '- [x] 1.1 ') });
  });

  it('ticks a keyless task whose title the import cut or wrote visibly, by the title it made (a trial\'s run "completed" with them unticked)', () => {
    const long = `Update the release notes ${'and the changelog '.repeat(12)}for the tags feature`;
    const text = `# Checklist\n- [ ] Write the code\n- [ ] ${long}\n- [ ] Zero\u200bwidth space\n- [ ] Soft\u00adhyphen and \u202eoverride\n`;
    const imported = importTaskFile('CHECKLIST.md', text, { model: false, tick: true });
    assert.ok(imported.ok);
    let current = text;
    for (const step of imported.plan.steps) {
      const ticked = tickTaskLine(current, readOrigin(step.input ?? '').origin!, step.title);
      assert.ok(ticked.ok, `${step.title}: ${ticked.ok ? '' : ticked.problem}`);
      current = ticked.text;
    }
    assert.equal(current, text.replaceAll('- [ ]', '- [x]'));
    assert.ok(imported.plan.steps[1]!.title.length < long.length, 'the long title was cut at the import');
    assert.match(imported.plan.steps[2]!.title, /\\u200b/);
  });

  it('finds a keyless task whose title was cut by its whole text: never the other task of the same cut title, after lines were swapped or removed', () => {
    const long = 'Refactor the storage layer so that '.repeat(6);
    const [albums, photos] = [`- [ ] ${long}for albums`, `- [ ] ${long}for photos`];
    const imported = importTaskFile('todo.md', `${albums}\n${photos}\n`, { model: false, tick: true });
    assert.ok(imported.ok);
    const [first, second] = imported.plan.steps;
    assert.equal(first!.title, second!.title, 'both titles are cut to the same text');
    const its = readOrigin(first!.input!).origin!;
    assert.equal(its.taskText, `${long}for albums`);
    const swapped = `${photos}\n${albums}\n`;
    assert.deepEqual(tickTaskLine(swapped, its, first!.title), { ok: true, line: 2, text: `${photos}\n${albums.replace('[ ]', '[x]')}\n` });
    const removed = tickTaskLine(`${photos}\n`, its, first!.title);
    assert.equal(removed.ok, false);
    assert.match(!removed.ok ? removed.problem : '', /^todo\.md has no checkbox for the task "Refactor .*characters cut\)" any more \(it was on line 1\)/);
    // Unmoved, each ticks its own line.
    const own = tickTaskLine(`${albums}\n${photos}\n`, readOrigin(second!.input!).origin!, second!.title);
    assert.equal(own.ok && own.line, 2);
    // An input that holds the task's text raw, invisible characters and all, finds it as well.
    const raw = tickTaskLine('- [ ] Zero\u200bwidth\n', { ...origin(1), taskText: 'Zero\u200bwidth' }, 'Zero\\u200bwidth');
    assert.equal(raw.ok && raw.text, '- [x] Zero\u200bwidth\n');
  });

  it('ticks a task known only by a cut title (no whole text: an input edited since) only when it is the one line of that title', () => {
    const long = 'Refactor the storage layer so that '.repeat(6);
    const [albums, photos] = [`- [ ] ${long}for albums`, `- [ ] ${long}for photos`];
    const imported = importTaskFile('todo.md', `${albums}\n${photos}\n`, { model: false, tick: true });
    assert.ok(imported.ok);
    const step = imported.plan.steps[0]!;
    const { taskText: _text, ...its } = readOrigin(step.input!).origin!;
    const both = tickTaskLine(`${photos}\n${albums}\n`, its, step.title);
    assert.equal(both.ok, false, 'its own line 1 now holds the photos task, which never ran');
    assert.match(!both.ok ? both.problem : '', /has 2 checkboxes for the task .* \(lines 1, 2\); none was ticked/);
    const edited = { ...readOrigin(step.input!.replace(long, 'Now: ')).origin!, line: 1 };
    assert.equal(tickTaskLine(`${albums}\n${photos}\n`, edited, step.title).ok, false, 'an input that no longer opens with the task is no whole text');
    assert.deepEqual(tickTaskLine(`# List\n${albums}\n`, its, step.title), { ok: true, line: 2, text: `# List\n${albums.replace('[ ]', '[x]')}\n` });
  });

  it('refuses a file saved since with old Mac line endings (CR alone): its lines are not told apart, and nothing changes', () => {
    const text = '- [ ] T001 First\r- [ ] T002 Second\r';
    for (const [key, title] of [['T001', 'First'], ['T002', 'Second']] as const) {
      const ticked = tickTaskLine(text, origin(1, key), title);
      assert.equal(ticked.ok, false);
      assert.match(!ticked.ok ? ticked.problem : '', new RegExp(`^specs/001/tasks\\.md uses old Mac line endings \\(CR alone\\).*LF or CRLF.*task ${key} was left as it is`));
    }
  });

  it('never ticks an example in a fenced code block, which the import did not read as a task', () => {
    const text = '# T\n```markdown\n- [ ] T001 Real\n```\n- [ ] T001 Real\n~~~\n- [ ] Ship\n~~~\n- [ ] Ship\n';
    const real = tickTaskLine(text, origin(3, 'T001'), 'Real');
    assert.deepEqual(real, { ok: true, line: 5, text: '# T\n```markdown\n- [ ] T001 Real\n```\n- [x] T001 Real\n~~~\n- [ ] Ship\n~~~\n- [ ] Ship\n' });
    const keyless = tickTaskLine(text, origin(7), 'Ship');
    assert.equal(keyless.ok && keyless.line, 9);
  });

  it('ticks the task of its own section after the user swapped two sections that each hold a task of that title', () => {
    const imported = ['# Plan', '', '## Phase 1', '- [ ] Write tests', '- [ ] Build it', '', '## Phase 2', '- [ ] Write tests', ''].join('\n');
    const result = importTaskFile('tasks.md', imported, { model: false, tick: true });
    assert.ok(result.ok);
    const steps = result.plan.steps;
    const phaseOne = readOrigin(steps[0]!.input ?? '').origin!;
    assert.deepEqual([phaseOne.line, phaseOne.section], [4, ['Phase 1']]);
    const swapped = ['# Plan', '', '## Phase 2', '- [ ] Write tests', '', '## Phase 1', '- [ ] Write tests', '- [ ] Build it', ''].join('\n');
    const ticked = tickTaskLine(swapped, phaseOne, 'Write tests');
    assert.deepEqual(ticked, { ok: true, line: 7, text: swapped.replace('## Phase 1\n- [ ] Write tests', '## Phase 1\n- [x] Write tests') });
    // Its own line, still under its heading, is taken as before; a task moved alone into another section is still found.
    const own = tickTaskLine(imported, phaseOne, 'Write tests');
    assert.equal(own.ok && own.line, 4);
    const moved = ['# Plan', '', '## Phase 1', '- [ ] Build it', '', '## Phase 2', '- [ ] Write tests', ''].join('\n');
    const build = readOrigin(steps[1]!.input ?? '').origin!;
    assert.equal(tickTaskLine(moved.replace('- [ ] Build it', 'Nothing here').replace('## Phase 2\n', '## Phase 2\n- [ ] Build it\n'), build, 'Build it').ok, true);
    // Under neither heading, two lines that hold it are still refused.
    const renamed = swapped.replace('## Phase 1', '## Phase One');
    const neither = tickTaskLine(renamed, phaseOne, 'Write tests');
    assert.match(neither.ok ? 'ticked' : neither.problem, /2 checkboxes/);
  });

  it('ticks exactly the line of the task the import read, whatever lines were added above it (property)', () => {
    // Few words, so titles repeat and contain each other.
    const title = fc.array(fc.constantFrom('ship', 'docs', 'ship docs', 'a'), { minLength: 1, maxLength: 3 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(
        fc.array(title, { minLength: 1, maxLength: 8 }),
        fc.array(fc.oneof(title.map((text) => `- [ ] ${text}`), fc.constantFrom('', 'Note', '```', '## Part')), { maxLength: 4 }),
        fc.boolean(),
        (titles, added, crlf) => {
          const eol = crlf ? '\r\n' : '\n';
          const text = `# List${eol}${eol}${titles.map((each) => `- [ ] ${each}`).join(eol)}${eol}`;
          const imported = importTaskFile('list.md', text, { model: false, format: 'checklist', tick: true });
          assert.ok(imported.ok);
          const edited = `${added.join(eol)}${added.length > 0 ? eol : ''}${text}`;
          // What the import read of the edited file: the tasks with their lines.
          const now = importTaskFile('list.md', edited, { model: false, format: 'checklist' });
          for (const step of imported.plan.steps) {
            const found = readOrigin(step.input ?? '').origin!;
            const ticked = tickTaskLine(edited, found, step.title);
            const holders = now.ok ? now.plan.steps.filter((each) => each.title === step.title).map((each) => now.origins[each.id]) : [];
            if (!ticked.ok) {
              assert.ok(holders.length !== 1, `${step.title} is on line ${holders.join()} once, yet: ${ticked.problem}`);
              continue;
            }
            assert.ok(holders.includes(ticked.line), `ticked line ${ticked.line} holds no task "${step.title}"`);
            const before = edited.split(eol);
            const after = ticked.text.split(eol);
            assert.equal(after.length, before.length);
            after.forEach((line, index) => assert.equal(line, index + 1 === ticked.line ? before[index]!.replace('[ ]', '[x]') : before[index]));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
