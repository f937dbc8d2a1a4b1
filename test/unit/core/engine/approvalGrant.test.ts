import assert from 'node:assert/strict';
import { describeGrant, grantCovers, makeGrant, type WaitingFileApproval } from '../../../../src/core/engine/approvalGrant';
import type { ApprovalRequest } from '../../../../src/core/interactionPorts';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { makePlan, makeStep } from '../../../support/randomPlans';

const tools = createToolRegistry(builtinTools());
const edit = (id: string, path: string) => makeStep(id, { kind: 'tool', agent: undefined, input: undefined, tool: 'edit_file', args: { path, edits: [{ search: 'var', replace: 'let' }] } });
// Twelve identical one-line edits, and an agent step that names no files, and one that does.
const plan = makePlan([
  ...Array.from({ length: 12 }, (_, index) => edit(`E${index + 1}`, `src/f${index + 1}.js`)),
  makeStep('A', { input: 'Tidy up' }),
  makeStep('W', { input: 'Write the docs', writes: ['docs/**'] }),
]);
const fileRequest = (stepId: string, path: string, proposedText = 'let x = 1;\n', extra: Partial<Extract<ApprovalRequest, { kind: 'file' }>> = {}) =>
  ({
    kind: 'file',
    stepId,
    title: stepId,
    operation: 'edit',
    proposal: { path, currentText: 'var x = 1;\n', proposedText, diff: '' },
    ...extra,
  }) as Extract<ApprovalRequest, { kind: 'file' }>;
const waitingOf = (stepId: string, path: string): WaitingFileApproval => ({ requestId: `${stepId}@req`, request: fileRequest(stepId, path) });

describe('approvalGrant: what "Approve the rest" covers is what it lists', () => {
  const waiting = [waitingOf('E1', 'src/f1.js'), waitingOf('E2', 'src/f2.js'), waitingOf('A', 'src/a.js')];
  const run = makeGrant({ runId: 'r', reach: 'run', stepId: 'E1', plan, tools, waiting, ended: new Set() });

  it('"the rest of this run": the waiting changes as proposed and the later edits of the steps listed, each to its own file', () => {
    for (let index = 1; index <= 10; index++) {
      assert.ok(grantCovers(run, 'r', `E${index}@later`, fileRequest(`E${index}`, `src/f${index}.js`)), `E${index}`);
    }
    assert.ok(grantCovers(run, 'r', 'A@req', fileRequest('A', 'src/a.js')), 'the agent step\'s waiting change, as listed');
    const fewer = makeGrant({ runId: 'r', reach: 'run', stepId: 'W', plan: makePlan(plan.steps.slice(-2)), tools, waiting: [], ended: new Set() });
    assert.ok(grantCovers(fewer, 'r', 'W@x', fileRequest('W', 'docs/guide.md')), 'inside the files W declared');
  });

  // An outside attack: the steps past the list's last line ("… and 3 more") were covered, their files never shown.
  it('never the steps past its last line: they still ask, and the list says so', () => {
    for (const [stepId, path] of [['E11', 'src/f11.js'], ['E12', 'src/f12.js'], ['W', 'docs/guide.md']] as const) {
      assert.equal(grantCovers(run, 'r', `${stepId}@later`, fileRequest(stepId, path)), false, stepId);
    }
    assert.deepEqual(run.unlisted, ['E11', 'E12', 'W']);
    assert.equal(describeGrant(run).at(-1), 'Still asks: later changes of A (no files declared); changes of E11, E12, W the list above does not show');
  });

  it('never: a later change of a step that declared no files, a file a step did not name, a command, another run, a change outside scope, through a link', () => {
    assert.equal(grantCovers(run, 'r', 'A@other', fileRequest('A', 'src/a.js', 'changed after the choice')), false, 'a step that changes its write after the choice');
    assert.equal(grantCovers(run, 'r', 'E3@x', fileRequest('E3', 'src/f4.js')), false);
    assert.equal(grantCovers(run, 'r', 'W@x', fileRequest('W', 'src/elsewhere.js')), false);
    const command: ApprovalRequest = { kind: 'command', stepId: 'E1', title: 't', argv: ['rm', '-rf', '.'], cwd: '', shell: false };
    assert.equal(grantCovers(run, 'r', 'E1@req', command), false, 'a command, even under a listed request id');
    assert.equal(grantCovers(run, 'other', 'E1@req', fileRequest('E1', 'src/f1.js')), false);
    assert.equal(grantCovers(run, 'r', 'E2@x', fileRequest('E2', 'src/f2.js', 'x', { outsideScope: true })), false);
    assert.equal(grantCovers(run, 'r', 'E1@req', fileRequest('E1', 'src/f1.js', 'x', { interrupted: true })), false, 'a change a crash may already have made, even listed');
    const linked = fileRequest('E2', 'src/f2.js');
    linked.proposal.resolvedPath = '/etc/passwd';
    assert.equal(grantCovers(run, 'r', 'E2@x', linked), false);
    assert.equal(grantCovers(run, 'r', 'R1@x', fileRequest('R1', 'src/f1.js')), false, 'a repair step added later');
  });

  it('"the rest of this step" covers only that step; ended steps are not in "the rest of this run"', () => {
    const step = makeGrant({ runId: 'r', reach: 'step', stepId: 'E1', plan, tools, waiting, ended: new Set() });
    assert.ok(grantCovers(step, 'r', 'E1@req', fileRequest('E1', 'src/f1.js')));
    assert.equal(grantCovers(step, 'r', 'E2@req', fileRequest('E2', 'src/f2.js')), false);
    const afterSome = makeGrant({ runId: 'r', reach: 'run', stepId: 'E5', plan, tools, waiting: [], ended: new Set(['E1', 'E2']) });
    assert.equal(grantCovers(afterSome, 'r', 'E1@again', fileRequest('E1', 'src/f1.js')), false);
    assert.ok(grantCovers(afterSome, 'r', 'E3@x', fileRequest('E3', 'src/f3.js')));
  });

  it('lists each covered step once (its change waiting now and its later files), at most 12 lines, then what still asks', () => {
    const lines = describeGrant(run);
    assert.equal(lines[0], 'E1 Step E1: edit src/f1.js now, as proposed; later changes to src/f1.js');
    assert.equal(lines[2], 'A Step A: edit src/a.js now, as proposed', 'a step that declared no files: its waiting change only');
    assert.equal(lines.filter((line) => line.startsWith('E1 ')).length, 1, 'one line per step');
    assert.ok(lines.includes('… and 3 more (they still ask)') && lines.length === 13, lines.join('\n'));
    assert.match(lines.at(-1) ?? '', /^Still asks: later changes of A \(no files declared\); /);
    const step = describeGrant(makeGrant({ runId: 'r', reach: 'step', stepId: 'W', plan, tools, waiting: [], ended: new Set() }));
    assert.deepEqual(step.slice(0, 1), ['W Step W: later changes to docs/**']);
  });
});
