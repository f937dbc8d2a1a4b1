import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { FakeOpenAiServer, matchers } from '../../fakes/fakeOpenAiServer';
import { runCli as cli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const fixtures = join(resolve(__dirname, '../../..'), 'test/fixtures/interop');

describe('task-planner CLI: task files of other tools', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-taskfiles-');

  it('import prints the plan as JSON and says which line each step came from', async () => {
    const result = await cli(['import', join(fixtures, 'speckit/migration.tasks.md')]);
    assert.equal(result.code, 0, result.stderr);
    const plan = JSON.parse(result.stdout) as { steps: { id: string; kind: string; dependsOn: string[]; skipped?: boolean }[] };
    assert.deepEqual(plan.steps.map((step) => [step.id, step.kind, step.dependsOn, step.skipped === true]), [
      ['T001', 'manual', [], true],
      ['T002', 'manual', [], true],
      ['T003', 'manual', [], false],
      ['T004', 'manual', [], false],
      ['T005', 'manual', ['T003'], false],
    ]);
    assert.match(result.stderr, /Spec Kit tasks\.md, 5 steps/);
    assert.match(result.stderr, /line 14: T005 Switch the handlers to the new store in src\/http\/handlers\.go after T003/);
    assert.match(result.stderr, /line 7: T001 .*\(done in the source file: skipped\)/);
  });

  it('refuses a task file in UTF-16 or Latin-1 before anything starts, saying to save it as UTF-8 (it ran commands of U+FFFD characters)', async () => {
    const latin1 = join(workspace.path, 'latin1.md');
    writeFileSync(latin1, Buffer.from('# Caf\xe9\n\n- [ ] Run `echo caf\xe9`\n', 'latin1'));
    const utf16 = join(workspace.path, 'utf16.md');
    writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('# Tasks\n\n- [ ] Write notes\n', 'utf16le')]));
    for (const [file, said] of [[latin1, /latin1\.md is not UTF-8 text \(Latin-1 or another encoding\?\): .*Save it as UTF-8 and try again\. Nothing was started\./], [utf16, /utf16\.md is UTF-16 text: .*Save it as UTF-8/]] as const) {
      for (const command of [['import', file], ['run', file, '--workspace', workspace.path, '--yes']]) {
        const refused = await cli(command);
        assert.equal(refused.code, 2, refused.stderr);
        assert.match(refused.stderr, said);
      }
    }
    assert.equal(existsSync(join(workspace.path, '.task-planner', 'runs')), false, 'a run was started');
  });

  it('says a task file or plan file that is not there is not there, in words (it printed Node\'s ENOENT text)', async () => {
    const missing = await cli(['import', join(workspace.path, 'nope.md')]);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /Cannot read \S*nope\.md: there is no file \S*nope\.md\. Check the path\./);
    const plan = await cli(['run', join(workspace.path, 'nope.plan.json'), '--workspace', workspace.path]);
    assert.equal(plan.code, 2, plan.stderr);
    assert.match(plan.stderr, /Cannot read the plan file \S*nope\.plan\.json: there is no file /);
    const folder = await cli(['import', workspace.path]);
    assert.match(folder.stderr, /is a folder, not a file\./);
    assert.doesNotMatch(missing.stderr + plan.stderr + folder.stderr, /ENOENT|EISDIR/);
  });

  it('import --out writes the plan; export writes it back as any format; an unknown format is a usage error', async () => {
    const out = join(workspace.path, 'kiro.plan.json');
    const imported = await cli(['import', join(fixtures, 'kiro/dark-mode.tasks.md'), '--format', 'kiro', '--out', out]);
    assert.equal(imported.code, 0, imported.stderr);
    const exported = await cli(['export', out, '--format', 'kiro']);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /^- \[x\] 1\. Configure Tailwind for dark mode$/m);
    assert.match(exported.stdout, /^ {2}- \[ \]\* 3\.3 Write property test for theme resolution$/m);
    assert.equal(exported.stderr, '', 'nothing of an imported plan is lost');
    // A plan of tool calls and checks says what the task list leaves out (a newcomer's round trip became tasks to do by hand).
    const tools = await cli(['export', join(fixtures, '..', 'notes.plan.json'), '--format', 'checklist']);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(
      tools.stderr,
      /^Markdown checklist keeps each step's title, order, dependencies and ticks, not what runs it: left out 3 tool calls with their arguments \(said in a line of the task, as text\), 1 verification\./,
    );
    const written = join(workspace.path, 'tasks-export.md');
    assert.match((await cli(['export', out, '--format', 'kiro', '--out', written])).stderr, /^Wrote .*tasks-export\.md\.$/m);
    assert.match((await cli(['export', out, '--format', 'kiro', '--out', written])).stderr, /^Replaced .*tasks-export\.md, which was there before/m);
    const bad = await cli(['export', out, '--format', 'jira']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--format must be one of speckit, kiro, cursor, copilot, checklist; got "jira"/);
    assert.ok(JSON.parse(readFileSync(out, 'utf8')));
  });

  it('import dates the plan now, not 1970, and shows a task that is exactly "Run `<command>`" as the command it runs (a newcomer\'s trial)', async () => {
    const file = join(workspace.path, 'TODO.md');
    writeFileSync(file, '# Release\n\n- [ ] Make `notes search` case-insensitive\n- [ ] Run `npm test`\n');
    const before = Date.now();
    const result = await cli(['import', file]);
    assert.equal(result.code, 0, result.stderr);
    const plan = JSON.parse(result.stdout) as { createdAt: string; steps: { kind: string; tool?: string; args?: unknown }[] };
    assert.ok(Date.parse(plan.createdAt) >= before - 1_000, plan.createdAt);
    assert.deepEqual(plan.steps.map((step) => [step.kind, step.tool, step.args]), [
      ['manual', undefined, undefined],
      ['tool', 'run_command', { argv: ['npm', 'test'] }],
    ]);
    assert.match(result.stderr, /line 4: S2 Run `npm test` after S1 \(tool run_command\)/);
  });

  it('exports a task file as run reads it, and --run ticks what a run of that file completed, --tick or not (a newcomer\'s trial)', async () => {
    const root = join(workspace.path, 'export-task-file');
    mkdirSync(root, { recursive: true });
    const todo = join(root, 'TODO.md');
    writeFileSync(todo, '# Chores\n\n- [ ] Run `ls`\n- [ ] Read the notes out loud\n');
    // Read as a plan file, the checklist's heading and path-like words were exported as tasks ("- [ ] # Chores").
    const plain = await cli(['export', todo, '--format', 'checklist', '--workspace', root]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.deepEqual(plain.stdout.split('\n').filter((line) => line.startsWith('- [')), ['- [ ] Run `ls`', '- [ ] Read the notes out loud']);
    for (const tick of [[], ['--tick', '--allow-file-changes']]) {
      writeFileSync(todo, '# Chores\n\n- [ ] Run `ls`\n- [ ] Read the notes out loud\n');
      const run = await cli(['run', todo, ...tick, '--allow-command', 'ls', '--workspace', root, '--json']);
      assert.equal(run.code, 3, `${tick.join(' ')}: ${run.stderr}`);
      const { runId } = JSON.parse(run.stdout) as { runId: string };
      // Ticked by the run (or not), the file imports as another plan (another id): its tasks are still that run's.
      const exported = await cli(['export', todo, '--format', 'checklist', '--run', runId, '--workspace', root]);
      assert.equal(exported.code, 0, `${tick.join(' ')}: ${exported.stderr}`);
      assert.match(exported.stdout, /^- \[x\] Run `ls`$/m, tick.join(' '));
      assert.match(exported.stdout, /^- \[ \] Read the notes out loud$/m, tick.join(' '));
    }
    // `runs` names them by the file's title, as the editor does, not by the objective flattened with the file's other lines.
    writeFileSync(todo, '# Chores\n\nThe weekly ones.\n\n- [ ] Run `ls`\n');
    const noted = await cli(['run', todo, '--allow-command', 'ls', '--workspace', root, '--json']);
    const { runId } = JSON.parse(noted.stdout) as { runId: string };
    const runs = await cli(['runs', '--workspace', root]);
    assert.match(runs.stdout, new RegExp(`^${runId} .* Chores$`, 'm'), runs.stdout);
    const listed = JSON.parse((await cli(['runs', '--workspace', root, '--json'])).stdout) as { runId: string; objective: string }[];
    assert.equal(listed.find((row) => row.runId === runId)?.objective, 'Chores\n\nThe weekly ones.', 'the JSON keeps the whole objective');
  });

  it('export of a Spec Kit file back to Spec Kit does not call its "Run `<command>`" tasks yours to do: imported again they run the command', async () => {
    const root = join(workspace.path, 'export-run-task');
    mkdirSync(root, { recursive: true });
    const file = join(root, 'tasks.md');
    const text = '# Tasks: Release\n\n## Phase 1: Checks\n\n- [ ] T001 Run `npm test`\n- [ ] T002 [P] Update docs/usage.md\n';
    writeFileSync(file, text);
    const exported = await cli(['export', file, '--format', 'speckit', '--workspace', root]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.stdout, text);
    assert.doesNotMatch(exported.stderr, /left out|yours to do/);
    // A tool call no task says as its command still is said.
    const plan = join(root, 'list.plan.json');
    writeFileSync(plan, JSON.stringify({ objective: 'x', steps: [{ id: 'S1', title: 'List', kind: 'tool', tool: 'list_files', args: {}, dependsOn: [] }] }));
    const listed = await cli(['export', plan, '--format', 'speckit', '--workspace', root]);
    assert.match(listed.stderr, /left out 1 tool call with its arguments .*yours to do/);
  });

  it('export --run ticks the tasks whose steps that run completed; a run of another plan writes nothing (the editor ticked, the command line could not)', async () => {
    const root = join(workspace.path, 'export-run');
    mkdirSync(root, { recursive: true });
    const planFile = join(root, 'notes.plan.json');
    writeFileSync(planFile, JSON.stringify({
      id: 'plan-export-run',
      objective: 'Write the notes, then read them out',
      steps: [
        { id: 'W', title: 'Write the notes', kind: 'tool', tool: 'write_file', args: { path: 'notes.md', content: '# Notes\n' }, dependsOn: [] },
        { id: 'M', title: 'Read them out loud', kind: 'manual', dependsOn: ['W'] },
      ],
    }));
    const run = await cli(['run', planFile, '--workspace', root, '--allow-file-changes', '--json']);
    assert.equal(run.code, 3, run.stderr);
    const { runId } = JSON.parse(run.stdout) as { runId: string };
    const exported = await cli(['export', planFile, '--format', 'checklist', '--run', runId, '--workspace', root]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /^- \[x\] Write the notes$/m);
    assert.match(exported.stdout, /^- \[ \] Read them out loud$/m);
    assert.match(exported.stderr, new RegExp(`^Ticked 1 of 2 tasks: the steps run ${runId} completed\\.$`, 'm'));
    // A run of another plan says nothing of this one's steps.
    const other = join(root, 'other.plan.json');
    writeFileSync(other, JSON.stringify({ id: 'plan-other', objective: 'Something else', steps: [{ id: 'W', title: 'Write the notes', kind: 'manual', dependsOn: [] }] }));
    const out = join(root, 'tasks.md');
    const refused = await cli(['export', other, '--format', 'checklist', '--run', runId, '--workspace', root, '--out', out]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, new RegExp(`Run ${runId} ran another plan \\("Write the notes, then read them out"\\), not the one in other\\.plan\\.json: nothing was written`));
    assert.equal(existsSync(out), false);
    const unknown = await cli(['export', planFile, '--format', 'checklist', '--run', 'no-such-run', '--workspace', root]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /No run "no-such-run" in .*List the runs with: task-planner runs --workspace/);
    const misplaced = await cli(['import', join(fixtures, 'checklist/release.md'), '--run', runId]);
    assert.equal(misplaced.code, 2);
    assert.match(misplaced.stderr, /--run does not apply to "import"; it goes with "export"/);
  });

  it('run takes a task file: without a model its open tasks are yours to do, the ticked ones skipped as done', async () => {
    const result = await cli(['run', join(fixtures, 'checklist/release.md'), '--workspace', workspace.path, '--json']);
    assert.equal(result.code, 3, result.stderr);
    const run = JSON.parse(result.stdout) as { steps: Record<string, { status: string }>; pending?: { stepId: string; kind: string }[] };
    assert.equal(run.steps['S1']?.status, 'skipped');
    assert.deepEqual(run.pending?.map((request) => [request.stepId.replace(/@.*/, ''), request.kind]), [['S2', 'manual']]);
    assert.match(result.stderr, /Markdown checklist, 5 steps/);
  });

  describe('run --tick with a scripted model (issue 31)', () => {
    let server: FakeOpenAiServer;
    beforeEach(async () => {
      server = await new FakeOpenAiServer().start();
      // Every agent step reports its task done; nothing else is asked of the model.
      server.on(matchers.any(), { kind: 'message', content: 'Done.' });
    });
    afterEach(() => server.close());
    const model = (): string[] => ['--base-url', server.baseURL, '--model', 'gpt-4o-mini'];

    it('ticks each completed task in the file, an approved change Undo takes back; the done task and the notes stay as they were', async () => {
      mkdirSync(join(workspace.path, 'docs'), { recursive: true });
      const file = join(workspace.path, 'docs', 'release.md');
      const original = readFileSync(join(fixtures, 'checklist/release.md'), 'utf8').replace(/\n/g, '\r\n');
      writeFileSync(file, original);
      const result = await cli(['run', file, '--tick', '--workspace', workspace.path, ...model(), '--yes', '--json']);
      assert.equal(result.code, 0, result.stderr);
      const ticked = readFileSync(file, 'utf8');
      assert.equal((ticked.match(/- \[x\]/g) ?? []).length, 5, ticked);
      assert.equal(ticked.replace(/- \[x\]/g, '- [ ]'), original.replace(/- \[x\]/g, '- [ ]'), 'only the checkboxes changed, CRLF kept');
      const run = JSON.parse(result.stdout) as { runId: string };
      const undone = await cli(['undo', run.runId, '--workspace', workspace.path]);
      assert.equal(undone.code, 0, undone.stderr);
      assert.equal(readFileSync(file, 'utf8'), original, 'Undo unticks');
    });

    // Where each format's files live, so the file is read as that format (Kiro's by its folder), and the files the scripted
    // agent of the first open task would have made (a task saying "Create `X`" is checked by X being there).
    const placed: [fixture: string, at: string, made: string[]][] = [
      ['speckit/photo-albums.tasks.md', 'specs/001-photo-albums/tasks.md', []],
      ['speckit/migration.tasks.md', 'specs/002-migration/tasks.md', []],
      ['kiro/dark-mode.tasks.md', '.kiro/specs/dark-mode/tasks.md', ['frontend/src/context/ThemeContext.tsx']],
      ['kiro/build-system.tasks.md', '.kiro/specs/build-system/tasks.md', []],
      ['checklist/todo.md', 'todo.md', []],
    ];
    for (const [fixture, at, made] of placed) {
      it(`runs ${fixture} with a scripted model and ticks exactly the tasks whose steps completed`, async () => {
        const file = join(workspace.path, at);
        mkdirSync(dirname(file), { recursive: true });
        copyFileSync(join(fixtures, fixture), file);
        for (const path of made) {
          mkdirSync(dirname(join(workspace.path, path)), { recursive: true });
          writeFileSync(join(workspace.path, path), 'export {};\n');
        }
        const before = readFileSync(file, 'utf8');
        const result = await cli(['run', file, '--tick', '--workspace', workspace.path, ...model(), '--yes', '--json']);
        const run = JSON.parse(result.stdout) as { status: string; steps: Record<string, { status: string }> };
        const completed = Object.values(run.steps).filter((step) => step.status === 'completed').length;
        assert.ok(completed > 0, `${fixture}: no step completed (${run.status}): ${result.stderr}`);
        const after = readFileSync(file, 'utf8');
        const boxes = (text: string): number => (text.match(/\[[xX]\]/g) ?? []).length;
        assert.equal(boxes(after) - boxes(before), completed, `${fixture}: one tick per completed step\n${after}`);
        assert.equal(after.replace(/\[[xX ]\]/g, '[]'), before.replace(/\[[xX ]\]/g, '[]'), `${fixture}: only checkboxes changed`);
      });
    }

    it('refuses --tick for a task file outside the workspace, or a plan file, starting nothing', async () => {
      const outside = await cli(['run', join(fixtures, 'checklist/release.md'), '--tick', '--workspace', workspace.path, ...model(), '--yes']);
      assert.equal(outside.code, 2);
      assert.match(outside.stderr, /--tick changes .*release\.md, which is outside the workspace/);
      const plan = join(workspace.path, 'plan.json');
      writeFileSync(plan, JSON.stringify({ objective: 'x', steps: [{ id: 'S1', title: 'List', kind: 'tool', tool: 'list_files', args: {}, dependsOn: [] }] }));
      const planFile = await cli(['run', plan, '--tick', '--workspace', workspace.path, '--yes']);
      assert.equal(planFile.code, 2);
      assert.match(planFile.stderr, /--tick ticks the checkboxes of a task file/);
      assert.equal(server.chatRequests.length, 0, 'nothing was started');
    });

    it('without a terminal, --tick needs --allow-file-changes (or --yes): a tick asks first, and was dropped while the run "completed"', async () => {
      const file = join(workspace.path, 'todo.md');
      writeFileSync(file, '# Ship\n\n- [ ] Write notes\n- [ ] Ship it\n');
      const refused = await cli(['run', file, '--tick', '--workspace', workspace.path]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /Each step ticks its checkbox in todo\.md when it is done, .*add --allow-file-changes .* Nothing was started\./);
      assert.equal(existsSync(join(workspace.path, '.task-planner', 'runs')), false, 'no run was started');
      // Started with --allow-file-changes, its resume without it would drop the tick of the task marked done: refused too.
      const waiting = await cli(['run', file, '--tick', '--workspace', workspace.path, '--allow-file-changes', '--json']);
      const runId = (JSON.parse(waiting.stdout) as { runId: string }).runId;
      const resumed = await cli(['resume', runId, '--workspace', workspace.path, '--done', 'S1']);
      assert.equal(resumed.code, 2, resumed.stderr);
      assert.match(resumed.stderr, /Each step ticks its checkbox in todo\.md/);
      const ticked = await cli(['resume', runId, '--workspace', workspace.path, '--done', 'S1', '--allow-file-changes']);
      assert.equal(ticked.code, 3, ticked.stderr);
      assert.equal(readFileSync(file, 'utf8'), '# Ship\n\n- [x] Write notes\n- [ ] Ship it\n');
      // The command it prints to answer what waits carries --allow-file-changes: pasted as printed, it was refused (a trial).
      const answer = /task-planner resume \S+ --workspace \S+[^\n]*/.exec(ticked.stdout)?.[0] ?? '';
      assert.match(answer, / --allow-file-changes\b/, ticked.stdout);
      // And a rerun (an attack followed the CLI's own "Next:" rerun, and every tick was dropped as the run "completed").
      const ended = await cli(['resume', runId, '--workspace', workspace.path, '--failed', 'S2=not today', '--allow-file-changes']);
      assert.notEqual(ended.code, 3, ended.stderr);
      const rerun = await cli(['rerun', runId, '--from', 'S1', '--workspace', workspace.path]);
      assert.equal(rerun.code, 2, rerun.stderr);
      assert.match(rerun.stderr, /Each step ticks its checkbox in todo\.md/);
    });

    it('refuses --tick for a task file that leads out of the workspace through a link (it started, and every tick was lost)', async () => {
      const outside = mkdtempSync(join(tmpdir(), 'tick-outside-'));
      try {
        writeFileSync(join(outside, 'tasks.md'), '- [ ] One\n');
        symlinkSync(join(outside, 'tasks.md'), join(workspace.path, 'linked.md'));
        const refused = await cli(['run', join(workspace.path, 'linked.md'), '--tick', '--workspace', workspace.path, '--yes']);
        assert.equal(refused.code, 2, refused.stderr);
        assert.match(refused.stderr, /--tick changes .*linked\.md, which leads outside the workspace .* through a link/);
        assert.equal(readFileSync(join(outside, 'tasks.md'), 'utf8'), '- [ ] One\n');
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    });

    it('without --tick the file is left alone', async () => {
      const file = join(workspace.path, 'todo.md');
      copyFileSync(join(fixtures, 'checklist/release.md'), file);
      const result = await cli(['run', file, '--workspace', workspace.path, ...model(), '--yes']);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(readFileSync(file, 'utf8'), readFileSync(join(fixtures, 'checklist/release.md'), 'utf8'));
    });
  });
});
