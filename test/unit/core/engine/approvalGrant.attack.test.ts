import assert from 'node:assert/strict';
import { describeGrant, grantCovers, makeGrant } from '../../../../src/core/engine/approvalGrant';
import type { ApprovalRequest } from '../../../../src/core/interactionPorts';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { shownLine } from '../../../../src/vscode/shownText';
import { makePlan, makeStep } from '../../../support/randomPlans';

// Attack on "Approve the rest…": the modal lists what the grant covers (describeGrant, each line then cut by shownLine(200)
// in src/vscode/approveRestCommand.ts). A hostile plan (a plan file, or the model's plan) declares `writes` that the list
// cannot show whole; the grant then covers files the user was never shown.
const tools = createToolRegistry(builtinTools());
const fileRequest = (stepId: string, path: string): Extract<ApprovalRequest, { kind: 'file' }> => ({
  kind: 'file',
  stepId,
  title: stepId,
  operation: 'edit',
  proposal: { path, currentText: 'a\n', proposedText: 'b\n', diff: '' },
});
/** The list as the modal shows it: every line as `shownLine(line, 200)` makes it. */
const shownList = (lines: readonly string[]): string => lines.map((line) => shownLine(line, 200)).join('\n');

describe('attack: "Approve the rest" covers only what its list shows', () => {
  it('a declared glob too long to list whole ("{docs/…", covering package.json) is not covered: it still asks, the list says so', () => {
    const longName = 'docs/release-notes/2026/the-notes-for-the-upcoming-release-of-this-project-and-its-plugins-and-extensions.md';
    const hostile = `{${longName},*,*/*,*/*/*}`;
    const plan = makePlan([makeStep('W', { title: 'Write the release notes', input: 'Write the notes', writes: [hostile] })]);
    const grant = makeGrant({ runId: 'r', reach: 'run', stepId: 'W', plan, tools, waiting: [], ended: new Set() });
    const shown = shownList(describeGrant(grant));
    assert.equal(grantCovers(grant, 'r', 'W@later', fileRequest('W', 'package.json')), false, `covered, the user shown only:\n${shown}`);
    assert.equal(grantCovers(grant, 'r', 'W@later', fileRequest('W', longName)), false);
    assert.match(shown, /^Still asks: changes of W the list above does not show$/m);
  });

  it('a step declaring more files than its line holds has those past it (package.json) not covered: they still ask', () => {
    const innocent = Array.from({ length: 6 }, (_, index) => `docs/guide/chapter-${index + 1}-of-the-guide.md`);
    const plan = makePlan([makeStep('W', { title: 'Write the guide', input: 'Write the guide', writes: [...innocent, 'package.json'] })]);
    const grant = makeGrant({ runId: 'r', reach: 'run', stepId: 'W', plan, tools, waiting: [], ended: new Set() });
    const shown = shownList(describeGrant(grant));
    assert.equal(grantCovers(grant, 'r', 'W@later', fileRequest('W', 'package.json')), shown.includes('package.json'), shown);
    assert.equal(grantCovers(grant, 'r', 'W@later', fileRequest('W', 'package.json')), false);
    assert.ok(grantCovers(grant, 'r', 'W@later', fileRequest('W', innocent[0]!)), 'a file listed whole is covered');
    for (const line of describeGrant(grant)) assert.ok(line.length <= 200, line);
  });

  it('the steps only counted ("… and N more") are not covered: their declared files still ask', () => {
    const steps = Array.from({ length: 12 }, (_, index) => makeStep(`D${index + 1}`, { input: 'Document', writes: [`docs/d${index + 1}.md`] }));
    const plan = makePlan([...steps, makeStep('X', { title: 'Tidy', input: 'Tidy', writes: ['.github/workflows/release.yml'] })]);
    const grant = makeGrant({ runId: 'r', reach: 'run', stepId: 'D1', plan, tools, waiting: [], ended: new Set() });
    const shown = shownList(describeGrant(grant));
    assert.equal(grantCovers(grant, 'r', 'X@later', fileRequest('X', '.github/workflows/release.yml')), false, shown);
    assert.match(shown, /^… and 2 more \(they still ask\)$/m);
    assert.match(shown, /^Still asks: changes of D12, X the list above does not show$/m);
  });
});
