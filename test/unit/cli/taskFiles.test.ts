import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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

  it('import --out writes the plan; export writes it back as any format; an unknown format is a usage error', async () => {
    const out = join(workspace.path, 'kiro.plan.json');
    const imported = await cli(['import', join(fixtures, 'kiro/dark-mode.tasks.md'), '--format', 'kiro', '--out', out]);
    assert.equal(imported.code, 0, imported.stderr);
    const exported = await cli(['export', out, '--format', 'kiro']);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /^- \[x\] 1\. Configure Tailwind for dark mode$/m);
    assert.match(exported.stdout, /^ {2}- \[ \]\* 3\.3 Write property test for theme resolution$/m);
    const bad = await cli(['export', out, '--format', 'jira']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--format must be one of speckit, kiro, cursor, copilot, checklist; got "jira"/);
    assert.ok(JSON.parse(readFileSync(out, 'utf8')));
  });

  it('run takes a task file: without a model its open tasks are yours to do, the ticked ones skipped as done', async () => {
    const result = await cli(['run', join(fixtures, 'checklist/release.md'), '--workspace', workspace.path, '--json']);
    assert.equal(result.code, 3, result.stderr);
    const run = JSON.parse(result.stdout) as { steps: Record<string, { status: string }>; pending?: { stepId: string; kind: string }[] };
    assert.equal(run.steps['S1']?.status, 'skipped');
    assert.deepEqual(run.pending?.map((request) => [request.stepId.replace(/@.*/, ''), request.kind]), [['S2', 'manual']]);
    assert.match(result.stderr, /Markdown checklist, 5 steps/);
  });
});
