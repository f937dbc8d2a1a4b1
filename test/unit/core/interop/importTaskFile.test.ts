import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportFileName, exportTaskFile, importTaskFile, maxImportedTasks, sniffTaskFormat } from '../../../../src/core/interop/importTaskFile';
import { critiquePlan } from '../../../../src/core/plan/critiquePlan';
import { readCopilot } from '../../../../src/core/interop/copilotFormat';
import { readKiro } from '../../../../src/core/interop/kiroFormat';
import { emptyTask, pathsOfTask, splitDependsOn } from '../../../../src/core/interop/sourceTasks';
import { interopFormats, type InteropFormat } from '../../../../src/core/interop/interopFormats';
import type { Plan } from '../../../../src/core/plan/planSchema';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { readOrigin } from '../../../../src/core/interop/sourceOrigin';
import { tickTaskLine } from '../../../../src/core/interop/tickTaskLine';

const tools = createToolRegistry(builtinTools());

const fixtures = join(__dirname, '../../../fixtures/interop');

/** Each step as "id<-deps" with "x" when done and "?" when optional, in order. */
type Expected = { format: InteropFormat; steps: string[]; writes?: Record<string, string[]>; notes?: RegExp[] };

const expected: Record<string, Expected> = {
  'speckit/photo-albums.tasks.md': {
    format: 'speckit',
    steps: [
      'T001x',
      'T002',
      'T003<-T002',
      'T004<-T003',
      'T005<-T004',
      'T006<-T004',
      'T007<-T005,T006',
      'T008<-T007',
      'T009<-T007',
      'T010<-T008,T009',
      'T011<-T008,T009',
      'T012<-T010,T011',
      'T013<-T012',
    ],
    writes: { T012: ['src/services/albumService.ts'], T001: [] },
    notes: [/^description: "Task list/m, /\*\*Checkpoint\*\*: Foundation ready/, /## Dependencies & Execution Order/],
  },
  'speckit/cli-weather.tasks.md': {
    format: 'speckit',
    steps: ['T001', 'T002<-T001', 'T003<-T001', 'T004x<-T002,T003', 'T005<-T002,T003', 'T006<-T005', 'T007<-T006', 'T008<-T007', 'T009<-T008', 'T010<-T009'],
  },
  'speckit/migration.tasks.md': { format: 'speckit', steps: ['T001x', 'T002x', 'T003', 'T004', 'T005<-T003'], notes: [/Commit after each task/] },
  'kiro/dark-mode.tasks.md': {
    format: 'kiro',
    steps: ['1x', '2x', '3', '3.1x<-3', '3.2<-3', '3.3?<-3.2', '4<-3.2'],
    writes: { 3: ['frontend/src/context/ThemeContext.tsx'] },
    notes: [/## Overview/],
  },
  'kiro/build-system.tasks.md': { format: 'kiro', steps: ['1x', '2', '2.1x<-2', '2.2?<-2', '3<-2', '3.1<-3'] },
  'kiro/agent-orchestration.tasks.md': { format: 'kiro', steps: ['1.1x', '1.2?', '2.1', '2.2<-2.1', '2.3<-2.2'], notes: [/code-generation LLM/] },
  'cursor/grid-shapes.plan.md': {
    format: 'cursor',
    steps: ['grid-plane-utilsx', 'draw-typesx', 'draw-session<-grid-plane-utils,draw-types', 'scene-manager<-draw-session', 'sidebar-ui<-draw-types'],
    notes: [/isProject: false/, /corner-to-corner drag/],
  },
  'cursor/stale-tables.plan.md': {
    format: 'cursor',
    steps: ['extract-load-tablesx', 'add-to-load-data', 'subscribe-router<-add-to-load-data', 'add-filter-importx<-subscribe-router'],
  },
  'cursor/album-covers.plan.md': { format: 'cursor', steps: ['maplist-async', 'collect-pending<-maplist-async', 'S3<-collect-pending', 'add-fetch-method'] },
  'copilot/plan-rateLimiter.prompt.md': {
    format: 'copilot',
    steps: ['S1', 'S2<-S1', 'S3<-S2', 'S4<-S3'],
    writes: { S1: ['src/middleware/rateLimit.ts'] },
    notes: [/Further Considerations/, /Option A: per key/],
  },
  'copilot/plan-searchIndex.prompt.md': { format: 'copilot', steps: ['S1', 'S2<-S1', 'S3', 'S4<-S1,S2'], notes: [/\*\*Verification\*\*/] },
  'copilot/plan-darkTheme.prompt.md': { format: 'copilot', steps: ['S1x', 'S2', 'S3<-S2', 'S4<-S3'] },
  'checklist/release.md': { format: 'checklist', steps: ['S1x', 'S2', 'S3<-S2', 'S4<-S3', 'S5<-S4'] },
  'checklist/onboarding.md': { format: 'checklist', steps: ['S1', 'S2<-S1', 'S3x<-S2', 'S4<-S2', 'S5<-S1'], notes: [/#onboarding channel/] },
  'checklist/todo.md': { format: 'checklist', steps: ['S1', 'S2x<-S1', 'S3<-S1', 'S4<-S3'], notes: [/npm test -- upload/] },
};

function shape(plan: Plan): string[] {
  return plan.steps.map(
    (step) => `${step.id}${step.skipped === true ? 'x' : ''}${step.critical ? '' : '?'}${step.dependsOn.length > 0 ? `<-${step.dependsOn.join(',')}` : ''}`,
  );
}

/** The plan's structure with steps named by place, for comparing plans whose ids a format renumbers. */
function byPlace(plan: Plan): string[] {
  const place = new Map(plan.steps.map((step, index) => [step.id, index]));
  return plan.steps.map((step) => `${step.title}|${step.skipped === true}|${step.dependsOn.map((id) => place.get(id)).join(',')}`);
}

describe('importTaskFile', () => {
  for (const [file, want] of Object.entries(expected)) {
    describe(file, () => {
      const text = readFileSync(join(fixtures, file), 'utf8');
      const imported = importTaskFile(file, text, { model: true });
      if (!imported.ok) throw new Error(imported.problems.join('\n'));

      it('is sniffed as its format and makes a plan that validates, with the expected steps, dependencies and ticks', () => {
        assert.equal(sniffTaskFormat(file, text), want.format);
        assert.equal(imported.format, want.format);
        assert.deepEqual(shape(imported.plan), want.steps);
        assert.deepEqual(validatePlan(imported.plan, { tools }).filter((found) => found.severity === 'error'), []);
        assert.deepEqual(imported.warnings, []);
      });

      it('says where each step came from, and keeps the file\'s other lines in the objective', () => {
        const lines = text.split(/\r?\n/);
        for (const step of imported.plan.steps) {
          const line = imported.origins[step.id]!;
          assert.match(step.input ?? '', new RegExp(`, line ${line}[:.]$`, 'm'));
          assert.ok(lines[line - 1]!.includes(step.title.slice(0, 20)) || want.format === 'cursor', `${step.id} at line ${line}`);
        }
        for (const note of want.notes ?? []) assert.match(imported.plan.objective, note);
      });

      it('scopes agent steps to the files they name; without a model the steps are a person\'s', () => {
        for (const [id, writes] of Object.entries(want.writes ?? {})) {
          assert.deepEqual(imported.plan.steps.find((step) => step.id === id)?.writes ?? [], writes);
        }
        assert.ok(imported.plan.steps.every((step) => step.kind === 'agent' && step.agent === 'coder'));
        const manual = importTaskFile(file, text, { model: false });
        assert.ok(manual.ok && manual.plan.steps.every((step) => step.kind === 'manual' && step.writes === undefined));
        assert.deepEqual(manual.ok && manual.plan.agents, {});
      });

      for (const format of interopFormats) {
        it(`reads back from ${format} with the same steps, order, dependencies and ticks`, () => {
          const back = importTaskFile(`exported.${format}`, exportTaskFile(imported.plan, format), { model: true, format });
          assert.ok(back.ok);
          assert.deepEqual(byPlace(back.plan), byPlace(imported.plan));
          if (format === want.format) assert.deepEqual(shape(back.plan), shape(imported.plan));
        });
      }
    });
  }

  it('keeps the labels, requirements and sub-bullets of a task in its input, and writes them back', () => {
    const imported = importTaskFile('tasks.md', readFileSync(join(fixtures, 'speckit/photo-albums.tasks.md'), 'utf8'), { model: false });
    assert.ok(imported.ok);
    const step = imported.plan.steps.find((each) => each.id === 'T008')!;
    assert.match(step.input!, /- Story: US1\n/);
    assert.match(step.input!, /- Parallel: yes/);
    assert.match(step.input!, /- Section: Phase 3: User Story 1 - Organize photos into albums \(Priority: P1\) 🎯 MVP › Tests for User Story 1/);
    const written = exportTaskFile(imported.plan, 'speckit');
    assert.match(written, /^- \[ \] T008 \[P\] \[US1\] Contract test for POST \/albums in tests\/contract\/albums\.test\.ts$/m);
    assert.match(written, /^### Tests for User Story 1$/m);
    const kiro = importTaskFile('.kiro/specs/dark/tasks.md', readFileSync(join(fixtures, 'kiro/dark-mode.tasks.md'), 'utf8'), { model: false });
    assert.ok(kiro.ok);
    assert.match(kiro.plan.steps[0]!.input!, /- Requirements: 1\.4, 1\.5, 3\.1/);
    assert.match(
      exportTaskFile(kiro.plan, 'kiro'),
      /^ {2}- \[ \]\* 3\.3 Write property test for theme resolution\n {4}- \*\*Property 1: Resolution order\*\*/m,
    );
  });

  it('names what it cannot read: no format, no task, a dependency on no task', () => {
    assert.deepEqual(importTaskFile('notes.md', 'Just prose.\n', { model: false }).ok, false);
    const empty = importTaskFile('a.plan.md', '---\nname: x\n---\nbody\n', { model: false });
    assert.ok(!empty.ok && /no task of a Cursor plan/.test(empty.problems[0]!));
    // A box with no words is no task (a newcomer's "- [ ] " became a step titled ""): it stays in the objective.
    const blank = importTaskFile('todo.md', '# Todo\n\n- [ ] One\n- [ ] \n- [x]   \n- [ ] Two\n', { model: false });
    assert.ok(blank.ok);
    assert.deepEqual(blank.plan.steps.map((step) => step.title), ['One', 'Two']);
    assert.match(blank.plan.objective, /- \[ \] \n- \[x\]/);
    // A mistyped name keeps the task in its place (a newcomer's "Final check (depends on T099)" ran first).
    const dangling = importTaskFile('list.md', '- [ ] One\n- [ ] Two (depends on S9)\n- [ ] Three (depends on S1, S7)\n', { model: false });
    assert.ok(dangling.ok);
    assert.deepEqual(dangling.plan.steps[1]!.dependsOn, ['S1']);
    assert.deepEqual(dangling.plan.steps[2]!.dependsOn, ['S1', 'S2']);
    assert.match(dangling.warnings[0]!, /^Line 2 depends on S9, which is no task of the file; it also waits for what comes before it in the file\.$/);
    const speckit = importTaskFile('specs/001/tasks.md', '# Tasks\n\n- [ ] T001 Build\n- [ ] T002 [P] Lint (depends on T099)\n- [ ] T003 [P] Docs\n', { model: false });
    assert.ok(speckit.ok);
    assert.deepEqual(speckit.plan.steps.map((step) => step.dependsOn), [[], ['T001'], ['T001']]);
  });

  it('refuses to tick a Cursor or Copilot plan, which has no checkbox, before making any step (a trial\'s run warned at each step)', () => {
    const cursor = importTaskFile('.cursor/plans/tags.plan.md', '---\nname: Tags\ntodos:\n  - id: store\n    content: Store the tags\n    status: pending\n---\n', { model: false, tick: true });
    assert.ok(!cursor.ok);
    assert.equal(cursor.problems[0], '.cursor/plans/tags.plan.md is a Cursor plan, which has no checkboxes to tick; run it without ticking, and mark its tasks done in Cursor.');
    const copilot = importTaskFile('plan-tags.prompt.md', '# Plan: Tags\n\n## Steps\n1. Store the tags\n', { model: false, tick: true, format: 'copilot' });
    assert.ok(!copilot.ok && /is a Copilot plan, which has no checkboxes to tick.*in Copilot\.$/.test(copilot.problems[0]!));
    assert.ok(importTaskFile('.cursor/plans/tags.plan.md', '---\nname: Tags\ntodos:\n  - id: store\n    content: Store the tags\n    status: pending\n---\n', { model: false }).ok);
    assert.ok(importTaskFile('tasks.md', '- [ ] One\n', { model: false, tick: true }).ok);
  });

  it('says so when a task has the id of an earlier one, and names the step it became (a trial\'s second T002 was renamed silently)', () => {
    const twice = importTaskFile('specs/001/tasks.md', '# Tasks\n\n- [ ] T001 Build\n- [ ] T002 Lint\n- [ ] T002 Docs\n', { model: false });
    assert.ok(twice.ok);
    assert.deepEqual(twice.plan.steps.map((step) => step.id), ['T001', 'T002', 'S3']);
    assert.deepEqual(twice.warnings, ['Line 5: T002 is the id of an earlier task too; this task is step S3.']);
  });

  it('keeps a task whose line holds a stray carriage return or line separator a task, on one line (it became a note, and never ran)', () => {
    const text = '# Tasks\n\n- [ ] T001 Build\n- [ ] T002 Clear\rscreen\n- [ ] T003 Ship\u2028it\n';
    const imported = importTaskFile('specs/001/tasks.md', text, { model: false, tick: true });
    assert.ok(imported.ok);
    assert.deepEqual(imported.plan.steps.map((step) => [step.id, step.title]), [['T001', 'Build'], ['T002', 'Clear screen'], ['T003', 'Ship it']]);
    assert.doesNotMatch(imported.plan.objective, /Clear|Ship/);
    const origin = readOrigin(imported.plan.steps[1]!.input ?? '').origin!;
    const ticked = tickTaskLine(text, origin, imported.plan.steps[1]!.title);
    assert.ok(ticked.ok && ticked.text === text.replace('- [ ] T002', '- [x] T002'));
    const kiro = importTaskFile('.kiro/specs/x/tasks.md', '- [ ] 1. Build\rit\n  - [ ] 1.1 Test\u2029it\n', { model: false });
    assert.ok(kiro.ok);
    assert.deepEqual(kiro.plan.steps.map((step) => [step.id, step.title]), [['1', 'Build it'], ['1.1', 'Test it']]);
  });

  it('refuses a file of old Mac line endings (CR alone), saying what to do, before making any step: read as one line, it ran as one task', () => {
    for (const text of ['- [ ] T001 First\r- [ ] T002 Second\r- [ ] T003 Third\r', '# Tasks\r\r- [ ] Ship it', '- [ ] T001 Only\r']) {
      for (const format of [undefined, 'checklist'] as const) {
        const imported = importTaskFile('specs/tasks.md', text, { model: true, tick: true, ...(format !== undefined ? { format } : {}) });
        assert.deepEqual(imported, {
          ok: false,
          problems: [
            'specs/tasks.md uses old Mac line endings (CR alone), so its lines could not be told apart; save it with LF or CRLF line endings and import it again.',
          ],
        });
      }
    }
    // CRLF, and a stray CR in a file of line feeds, are read as before.
    for (const text of ['- [ ] T001 First\r\n- [ ] T002 Second\r\n', '- [ ] T001 First\n- [ ] T002 Clear\rscreen']) {
      const imported = importTaskFile('tasks.md', text, { model: false });
      assert.deepEqual(imported.ok && imported.plan.steps.map((step) => step.id), ['T001', 'T002']);
    }
  });

  it('keeps a Spec Kit task\'s id when a bracket that is no tag follows it (T002 [ ] became step S2, unsaid)', () => {
    const text = '- [ ] T001 Build\n- [ ] T002 [ ] Check the empty box\n- [ ] T003 [P] [a b] Spaced label\n- [ ] T004 [unclosed bracket\n';
    const imported = importTaskFile('tasks.md', text, { model: false });
    assert.ok(imported.ok);
    assert.equal(imported.format, 'speckit');
    assert.deepEqual(
      imported.plan.steps.map((step) => [step.id, step.title]),
      [['T001', 'Build'], ['T002', '[ ] Check the empty box'], ['T003', '[a b] Spaced label'], ['T004', '[unclosed bracket']],
    );
    assert.deepEqual(imported.warnings, []);
    const origin = readOrigin(imported.plan.steps[1]!.input!).origin!;
    assert.equal(origin.key, 'T002');
    const ticked = tickTaskLine(text, origin, imported.plan.steps[1]!.title);
    assert.equal(ticked.ok && ticked.text, text.replace('- [ ] T002', '- [x] T002'));
  });

  it('sniffs by path before content', () => {
    assert.equal(sniffTaskFormat('.kiro/specs/auth/tasks.md', '- [ ] 1. Do it'), 'kiro');
    assert.equal(sniffTaskFormat('.cursor/plans/x.md', ''), 'cursor');
    assert.equal(sniffTaskFormat('plan-fixLogin.prompt.md', ''), 'copilot');
    assert.equal(sniffTaskFormat('tasks.md', '- [ ] T001 Create it'), 'speckit');
    assert.equal(sniffTaskFormat('todo.md', '* [x] done'), 'checklist');
    assert.equal(sniffTaskFormat('readme.md', '# Title'), undefined);
  });
});

// A task file is anyone's text: a long run of one character, then one that ends the pattern, must cost linear time
// (ESLint's regexp rules prove it of each pattern; before, at 50,000 characters each took 10 s to over a minute; here 200,000).
describe('task files: long runs read in linear time (ReDoS)', () => {
  const run = 200_000;
  const spaces = ' '.repeat(run);

  it('sniffs a file of blank lines as no format, and a checkbox after them as a checklist', () => {
    assert.equal(sniffTaskFormat('t.md', `${'\n'.repeat(run)}x`), undefined);
    assert.equal(sniffTaskFormat('t.md', `${'\n'.repeat(run)}- [ ] x`), 'checklist');
  });

  it('reads requirements, a heading and a Copilot title padded with spaces', () => {
    const kiro = readKiro(`## Setup${spaces}x\u2028\n- [ ] 1. Task\n  - _Requirements: 1.2,${spaces}3.1_\n`, 'k');
    assert.deepEqual(kiro.tasks.map((task) => [task.title, task.requirements, task.section]), [['Task', ['1.2', '3.1'], [`Setup${spaces}x`]]]);
    assert.equal(readCopilot(`## Plan: Ship it${spaces}now\u2028`, 'c').title, `Ship it${spaces}now`);
  });

  it('finds no dependency in text padded with spaces, and one after them', () => {
    assert.deepEqual(splitDependsOn(`do it${spaces}x`), { text: `do it${spaces}x` });
    assert.deepEqual(splitDependsOn(`do it${spaces}(depends on T1, T2)`), { text: 'do it', dependsOn: ['T1', 'T2'] });
  });

  it('finds a linked path after a run of opening brackets', () => {
    assert.deepEqual(pathsOfTask({ ...emptyTask(1, `${'['.repeat(run)}x`), details: ['see [notes](docs/a.md)'] }), ['docs/a.md']);
  });
});

// A hostile task file of many tasks must give a clear problem or a bounded plan: tasks of a parallel run wait for every task of the run before.
describe('task files: the plan of a file is bounded', () => {
  const parallelRuns = (count: number): string =>
    ['## A', ...Array.from({ length: count / 2 }, (_, index) => `- [ ] T${index + 1} [P] a${index}`), '## B']
      .concat(Array.from({ length: count / 2 }, (_, index) => `- [ ] T${count / 2 + index + 1} [P] b${index}`))
      .join('\n');

  it('refuses a file of more tasks than a plan is made of, saying how many and what to do, before making any step', () => {
    const refused = importTaskFile('specs/huge/tasks.md', parallelRuns(12_000), { model: true });
    assert.deepEqual(refused, {
      ok: false,
      problems: ['specs/huge/tasks.md holds 12,000 tasks, more than the 5,000 one plan is made of; split it into smaller task files and import each.'],
    });
    const checklist = importTaskFile('todo.md', '- [ ] same\n'.repeat(maxImportedTasks + 1), { model: false });
    assert.equal(checklist.ok, false);
  });

  it('imports a file of as many tasks as a plan takes; two parallel runs make a quarter of their square in dependencies', () => {
    const most = importTaskFile('tasks.md', '- [ ] same\n'.repeat(maxImportedTasks), { model: false });
    assert.equal(most.ok && most.plan.steps.length, maxImportedTasks);
    const imported = importTaskFile('tasks.md', parallelRuns(1000), { model: true });
    assert.ok(imported.ok);
    assert.equal(imported.plan.steps.reduce((sum, step) => sum + step.dependsOn.length, 0), 500 ** 2);
  });
});

describe('task files: a newcomer\'s checklist', () => {
  const todo = [
    '# Release 0.4 checklist',
    '',
    'Some notes about the release, nothing special.',
    '',
    '## Code',
    '',
    '- [x] Rename searchNotes to findNotes',
    '- [ ] Make `notes search` case-insensitive',
    '- [ ] Run `npm test`',
    '- [ ] Create the file docs/usage.md',
    '',
    '## Release',
    '',
    '- [ ] Open a pull request',
    '- [ ] Tag the release',
    '- [x] Update the changelog',
    '',
  ].join('\n');

  it('makes a task that is exactly "Run `<command>`" a run_command step, with a model or without; any other stays', () => {
    for (const model of [true, false]) {
      const imported = importTaskFile('TODO.md', todo, { model });
      assert.ok(imported.ok);
      const run = imported.plan.steps[2]!;
      assert.deepEqual([run.kind, run.tool, run.args, run.dependsOn], ['tool', 'run_command', { argv: ['npm', 'test'] }, ['S2']]);
      assert.match(run.input ?? '', /From TODO\.md, line 9:/, 'its origin stays, so its checkbox can be ticked');
      assert.equal(run.requiresApproval, undefined, 'it asks as every command does');
      assert.deepEqual(validatePlan(imported.plan, { tools }).filter((found) => found.severity === 'error'), []);
      const create = imported.plan.steps[3]!;
      assert.equal(create.kind, model ? 'agent' : 'manual', 'a file to create wants content: no empty write_file');
    }
    for (const line of ['- [ ] Run `npm test && npm run lint`', '- [ ] Run `ls | wc -l`', '- [ ] Run `npm test` and fix what fails', '- [ ] Run `npm test`\n  - with coverage']) {
      const imported = importTaskFile('tasks.md', `${line}\n`, { model: true });
      assert.ok(imported.ok);
      assert.equal(imported.plan.steps[0]!.kind, 'agent', line);
    }
  });

  it('is critiqued for what can go wrong: no outside-world warning for its search, no unused results for the file\'s order, nothing on tasks done', () => {
    const imported = importTaskFile('TODO.md', todo, { model: true });
    assert.ok(imported.ok);
    const critique = critiquePlan(imported.plan, { tools });
    const skipped = new Set(imported.plan.steps.filter((step) => step.skipped === true).map((step) => step.id));
    assert.deepEqual(
      critique.issues.filter((issue) => ['optimism_bias', 'disconnected_flow', 'orphan_step'].includes(issue.check) || skipped.has(issue.stepId ?? '')),
      [],
    );
    // The agent that writes docs/usage.md is checked by the file being there (it was the critic's one finding: "unverified_change S4").
    assert.deepEqual(imported.plan.steps[3]?.checks, [{ kind: 'file_exists', path: 'docs/usage.md' }]);
    assert.deepEqual(critique.issues.map((issue) => `${issue.check} ${issue.stepId}`), []);
    assert.ok(critique.score >= 9, critique.summary);
  });

  it('is dated by the caller\'s clock when given one', () => {
    const imported = importTaskFile('TODO.md', todo, { model: false, createdAt: '2026-12-06T10:00:00.000Z' });
    assert.ok(imported.ok);
    assert.equal(imported.plan.createdAt, '2026-12-06T10:00:00.000Z');
  });
});

describe('exportTaskFile: what a run did and what a tool step does', () => {
  const plan = (): Plan => {
    const imported = importTaskFile('tasks.md', '# Ship\n\n- [ ] Build it\n- [ ] Run the tests\n- [ ] Read the notes\n- [ ] Run `npm run lint`\n', { model: false });
    assert.ok(imported.ok);
    const [build, tests, read, lint] = imported.plan.steps;
    return {
      ...imported.plan,
      steps: [
        build!,
        { ...tests!, kind: 'tool', tool: 'run_command', args: { argv: ['npm', 'test'], cwd: 'web' } },
        { ...read!, kind: 'tool', tool: 'read_file', args: { path: 'NOTES.md' } },
        lint!,
      ],
    };
  };

  it('writes a tool step\'s command or call as a detail line in the formats that have details, and reads it back', () => {
    for (const format of ['speckit', 'kiro', 'checklist', 'copilot'] as const) {
      const text = exportTaskFile(plan(), format);
      assert.match(text, /Run the tests\n\s+- Command: `npm test` \(in `web`\)\n/, format);
      assert.match(text, /Read the notes\n\s+- Tool call: `read_file \{"path":"NOTES\.md"\}`\n/, format);
      // A command its title shows already is not said twice.
      assert.doesNotMatch(text, /Command: `npm run lint`/, format);
      const back = importTaskFile(`x.${format}`, text, { model: false, format });
      assert.ok(back.ok);
      assert.match(back.plan.steps[1]!.input ?? '', /Command: `npm test` \(in `web`\)/, format);
      assert.equal(back.plan.steps[3]!.tool, 'run_command', format);
    }
  });

  it('ticks the steps in done, and nothing waits for them any more', () => {
    const text = exportTaskFile(plan(), 'checklist', new Set(['S1']));
    assert.match(text, /- \[x\] Build it\n/);
    const back = importTaskFile('tasks.md', text, { model: false, format: 'checklist' });
    assert.ok(back.ok);
    assert.deepEqual(back.plan.steps.map((step) => `${step.id}${step.skipped === true ? 'x' : ''}<-${step.dependsOn.join(',')}`), ['S1x<-', 'S2<-', 'S3<-S2', 'S4<-S3']);
    assert.doesNotMatch(exportTaskFile(plan(), 'checklist'), /\[x\]/);
  });

  it('proposes the name each tool gives its file', () => {
    assert.deepEqual(
      interopFormats.map((format) => exportFileName({ ...plan(), objective: 'Release 0.4 checklist\n\nSome notes about the release, nothing special.' }, format)),
      ['tasks.md', 'tasks.md', 'release-0-4-checklist.plan.md', 'plan-release-0-4-checklist.prompt.md', 'tasks.md'],
    );
  });
});
