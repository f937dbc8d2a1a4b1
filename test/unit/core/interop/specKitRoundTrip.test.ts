import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { exportTaskFile, importTaskFile } from '../../../../src/core/interop/importTaskFile';
import { toolCallReadBack } from '../../../../src/core/interop/planToTasks';
import { readOrigin } from '../../../../src/core/interop/sourceOrigin';
import type { Plan } from '../../../../src/core/plan/planSchema';

const fixtures = join(__dirname, '../../../fixtures/interop/speckit');

function imported(text: string): Plan {
  const back = importTaskFile('specs/001/tasks.md', text, { model: false, format: 'speckit' });
  assert.ok(back.ok, text);
  return back.plan;
}

/** `text` imported as a Spec Kit tasks.md and exported back to Spec Kit, unedited. */
function roundTrip(text: string): string {
  return exportTaskFile(imported(text), 'speckit');
}

// The promise: a Spec Kit tasks.md imported and exported back unedited keeps its structure (front matter, phases, the other
// lines where they stood, [P] and "(depends on …)" as written); only `[X]` is written `[x]`, and blank lines one between blocks.
describe('Spec Kit round trip: import, then export unedited', () => {
  it('keeps the lines that are no task under their phase, around its tasks (they all moved above the first phase)', () => {
    const text = [
      '# Tasks: Notes search',
      '',
      '## Phase 1: Setup',
      '',
      '**Purpose**: Project initialization',
      '',
      '- [ ] T001 Create the project structure',
      '- [ ] T002 Add the linter configuration in eslint.config.js',
      '',
      '**Checkpoint**: Setup ready',
      '',
      '---',
      '',
      '## Phase 2: User Story 1 - Search (Priority: P1)',
      '',
      'Search is case-insensitive.',
      '',
      '- [ ] T003 [US1] Implement search in src/search.ts',
      '',
      '**Checkpoint**: Search works on its own',
      '',
    ].join('\n');
    assert.equal(roundTrip(text), text);
  });

  it('writes [P] only where the file did: not on a ticked task, nor on the task after it', () => {
    const text = [
      '# Tasks: Release',
      '',
      '## Phase 1: Setup',
      '',
      '- [x] T001 Create the project structure',
      '- [x] T002 Add the configuration in config.yaml',
      '- [ ] T003 Write the changelog in CHANGELOG.md',
      '- [ ] T004 Tag the release',
      '',
    ].join('\n');
    assert.equal(roundTrip(text), text);
    assert.doesNotMatch(roundTrip(text), /\[P\]/);
  });

  it('keeps a task\'s "(depends on …)" as written, also where its place says the same', () => {
    const text = [
      '# Tasks: Albums',
      '',
      '## Phase 3: User Story 1',
      '',
      '- [ ] T010 [P] [US1] Create the Album model in src/models/album.ts',
      '- [ ] T011 [P] [US1] Create the Photo model in src/models/photo.ts',
      '- [ ] T012 [US1] Implement AlbumService in src/services/albumService.ts (depends on T010, T011)',
      '- [ ] T013 [US1] Wire the endpoint in src/api/albums.ts (depends on none)',
      '',
    ].join('\n');
    const plan = imported(text);
    assert.deepEqual(plan.steps.map((step) => step.dependsOn), [[], [], ['T010', 'T011'], []]);
    assert.equal(exportTaskFile(plan, 'speckit'), text);
  });

  it('names a task\'s dependencies as the plan has them once they changed: the file never says other than the plan', () => {
    const plan = imported('# Tasks\n\n- [ ] T001 A\n- [ ] T002 B\n- [ ] T003 C (depends on T001)\n');
    for (const dependsOn of [['T002'], ['T001', 'T002'], []]) {
      const edited: Plan = { ...plan, steps: plan.steps.map((step) => (step.id === 'T003' ? { ...step, dependsOn } : step)) };
      const text = exportTaskFile(edited, 'speckit');
      assert.match(text, new RegExp(`^- \\[ \\] T003 C \\(depends on ${dependsOn.length === 0 ? 'none' : dependsOn.join(', ')}\\)$`, 'm'));
      assert.deepEqual(imported(text).steps.map((step) => step.dependsOn), edited.steps.map((step) => step.dependsOn));
    }
  });

  it('counts a task "Run `<command>`" among what comes back as it was: imported again it runs the command (it was said to be yours to do)', () => {
    const plan = imported('# Tasks: Release\n\n- [ ] T001 Run `npm test`\n- [ ] T002 Run `npm run lint`.\n- [ ] T003 Write the notes\n');
    assert.deepEqual(plan.steps.map((step) => [step.kind, toolCallReadBack(step)]), [['tool', true], ['tool', true], ['manual', false]]);
    // A tool step whose task does not say its command exactly comes back as a task to do.
    const written = plan.steps.map((step) => (step.id === 'T001' ? { ...step, title: 'Run the tests', input: 'Run the tests' } : step));
    assert.equal(toolCallReadBack(written[0]!), false);
    assert.equal(toolCallReadBack({ ...written[1]!, args: { argv: ['npm', 'run', 'build'] } }), false, 'a title that says another command');
  });

  for (const fixture of ['photo-albums', 'cli-weather', 'migration']) {
    it(`writes ${fixture}.tasks.md back as it was: front matter, phases, purposes and checkpoints, [P] and "(depends on …)"`, () => {
      const text = readFileSync(join(fixtures, `${fixture}.tasks.md`), 'utf8');
      assert.equal(roundTrip(text), text.replace(/^- \[X\]/gm, '- [x]'));
    });
  }

  it('writes what it wrote once more when imported again: the origin\'s lines stay the same', () => {
    const text = readFileSync(join(fixtures, 'photo-albums.tasks.md'), 'utf8');
    const once = roundTrip(text);
    assert.equal(roundTrip(once), once);
    assert.deepEqual(imported(once).steps.map((step) => step.input), imported(text).steps.map((step) => step.input));
  });
});

// A Spec Kit file as its template writes one: front matter, a title, phases with their notes, sub-headings and tasks.
const word = fc.constantFrom('setup', 'album', 'photo', 'search', 'model', 'service', 'tests', 'docs', 'api', 'store');
const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((list) => list.join(' '));
const note = fc.oneof(
  words.map((text) => `**Purpose**: ${text}`),
  words.map((text) => `**Checkpoint**: ${text}`),
  words.map((text) => `- ${text}`),
  fc.constant('---'),
  words.map((text) => `> **NOTE**: ${text}`),
);
const notes = fc.array(note, { maxLength: 2 });
interface TaskRow {
  done: boolean;
  parallel: boolean;
  story: number | null;
  text: string;
  depends: number[] | null;
}
const taskRow: fc.Arbitrary<TaskRow> = fc.record({
  done: fc.boolean(),
  parallel: fc.boolean(),
  story: fc.option(fc.nat(3)),
  text: words,
  depends: fc.option(fc.array(fc.nat(), { maxLength: 3 })),
});
const part = fc.record({ heading: words, before: notes, tasks: fc.array(taskRow, { minLength: 1, maxLength: 4 }), after: notes });
const phase = fc.record({ heading: words, before: notes, parts: fc.array(part, { minLength: 1, maxLength: 2 }), sub: fc.boolean(), after: notes });
const specKitFile = fc.record({ front: fc.boolean(), intro: notes, phases: fc.array(phase, { minLength: 1, maxLength: 3 }) }).map(({ front, intro, phases }) => {
  const blocks: { tasks: boolean; lines: string[] }[] = [];
  const add = (lines: string[], tasks = false): void => {
    const last = blocks[blocks.length - 1];
    // Tasks with nothing between them are one run of lines, as the export writes them.
    if (tasks && last?.tasks === true) last.lines.push(...lines);
    else if (lines.length > 0) blocks.push({ tasks, lines });
  };
  const key = (n: number): string => `T${String(n).padStart(3, '0')}`;
  let count = 0;
  const task = (row: TaskRow): string => {
    count++;
    // Names earlier tasks only, as a file whose tasks can run does.
    const named = row.depends === null || count === 1 ? undefined : [...new Set(row.depends.map((n) => key((n % (count - 1)) + 1)))];
    const depends = named === undefined ? '' : ` (depends on ${named.length === 0 ? 'none' : named.join(', ')})`;
    const story = row.story === null ? '' : ` [US${row.story + 1}]`;
    return `- [${row.done ? 'x' : ' '}] ${key(count)}${row.parallel ? ' [P]' : ''}${story} ${row.text}${depends}`;
  };
  add(intro);
  phases.forEach((each, index) => {
    add([`## Phase ${index + 1}: ${each.heading}`]);
    add(each.before);
    each.parts.forEach((inner, at) => {
      if (each.sub) add([`### ${inner.heading} ${index + 1}.${at + 1}`]);
      add(inner.before);
      add(inner.tasks.map(task), true);
      add(inner.after);
    });
    add(each.after);
  });
  const head = front ? ['---', 'description: "Task list"', '---', '', '# Tasks: Generated'] : ['# Tasks: Generated'];
  return `${[...head, ...blocks.flatMap((block) => ['', ...block.lines])].join('\n')}\n`;
});

describe('Spec Kit round trip (property)', () => {
  it('writes any Spec Kit file of the template\'s shape back as it was', () => {
    fc.assert(
      fc.property(specKitFile, (text) => {
        assert.equal(roundTrip(text), text);
      }),
      { numRuns: 200 },
    );
  });
});

// An imported plan's objective edited by anyone (a person, a model): its lines still go where the steps' origins place them,
// but none may add a task, hide one, or change what one waits for or the section it is under.
const hostileLine = fc.constantFrom(
  '',
  'Note',
  '    indented under a task',
  '  - [ ] T900 smuggled',
  '- [x] done',
  '```',
  '<!-- open',
  '## Phase 1: setup',
  '### album 1.1',
  '# Title',
  '---',
  'description: x',
  '_Requirements: 1_',
);

describe('Spec Kit round trip of an edited objective (property)', () => {
  it('reads back with the same tasks, dependencies and sections, whatever the objective\'s lines say', () => {
    fc.assert(
      fc.property(specKitFile, fc.array(hostileLine, { maxLength: 30 }), fc.array(fc.option(fc.nat(40))), (text, lines, places) => {
        const plan = imported(text);
        // Some steps placed elsewhere among the objective's lines, as an edited (or hostile) input may say.
        const steps = plan.steps.map((step, index) => {
          const place = places[index];
          if (place === undefined || place === null) return step;
          return { ...step, input: `${step.input!.replace(/\n- After request line: \d+$/m, '')}\n- After request line: ${place}` };
        });
        const edited: Plan = { ...plan, objective: ['Tasks: Generated', ...lines].join('\n'), steps };
        const written = exportTaskFile(edited, 'speckit');
        const back = imported(written);
        const shape = (each: Plan): unknown[] =>
          each.steps.map((step) => {
            const { text: before, origin } = readOrigin(step.input ?? '');
            return [step.id, step.title, step.skipped, step.dependsOn, before, origin?.section, origin?.parallel, origin?.labels];
          });
        assert.deepEqual(shape(back), shape(edited), written);
      }),
      { numRuns: 300 },
    );
  });
});
