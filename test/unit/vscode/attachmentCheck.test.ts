import assert from 'node:assert/strict';
import '../../fakes/vscodeL10n';
import { findAttachmentProblems, replaceAttachment } from '../../../src/core/engine/attachmentProblems';
import type { Attachment, Plan } from '../../../src/core/plan/planSchema';
import { checkAttachments, type AttachmentCheckUi, type AttachmentChoice } from '../../../src/vscode/attachmentCheck';
import { createMemoryWorkspace } from '../../fakes/memoryWorkspace';
import { makePlan, makeStep } from '../../support/randomPlans';

/** Answers the dialogs from a script; records what it was asked. */
function scriptedUi(
  answers: (AttachmentChoice | undefined)[],
  files: (string | undefined)[] = [],
): AttachmentCheckUi & { asked: string[]; offered: AttachmentChoice[][] } {
  const asked: string[] = [];
  const offered: AttachmentChoice[][] = [];
  return {
    asked,
    offered,
    ask: async (message, choices) => {
      asked.push(message);
      offered.push([...choices]);
      return answers.shift();
    },
    chooseFile: async () => files.shift(),
  };
}

const workspace = createMemoryWorkspace({ 'docs/spec.md': 'spec', 'docs/other.md': 'other' });
const deps = (ui: AttachmentCheckUi) => ({ ui, problems: (plan: Plan) => findAttachmentProblems(plan, workspace), replace: replaceAttachment });
const planWith = (...attachments: Attachment[]) => makePlan([makeStep('S1', { attachments })]);

describe('checkAttachments: a missing attachment asks for another before the run', () => {
  it('starts the plan as it is when every attachment is there, asking nothing', async () => {
    const plan = planWith({ kind: 'file', ref: 'docs/spec.md' });
    const ui = scriptedUi([]);
    assert.equal(await checkAttachments(plan, deps(ui)), plan);
    assert.deepEqual(ui.asked, []);
  });

  it('puts the file the user chose in place of the missing one, checking it again', async () => {
    const ui = scriptedUi(['Choose another file…', 'Choose another file…'], ['docs/nope.md', 'docs/other.md']);
    const plan = await checkAttachments(planWith({ kind: 'file', ref: 'docs/gone.md' }), deps(ui));
    assert.deepEqual(plan?.steps[0]?.attachments, [{ kind: 'file', ref: 'docs/other.md', label: 'docs/other.md' }]);
    assert.deepEqual(ui.asked, [
      'Step S1 attaches the file "docs/gone.md", which does not exist in the workspace. Choose another file, run without it, or cancel the run.',
      'Step S1 attaches the file "docs/nope.md", which does not exist in the workspace. Choose another file, run without it, or cancel the run.',
    ]);
  });

  it('runs without it when the user says so, keeping the other attachments', async () => {
    const ui = scriptedUi(['Run without it']);
    const plan = await checkAttachments(planWith({ kind: 'file', ref: '../outside.md' }, { kind: 'link', ref: 'https://x.dev' }), deps(ui));
    assert.deepEqual(plan?.steps[0]?.attachments, [{ kind: 'link', ref: 'https://x.dev' }]);
    assert.match(ui.asked[0] ?? '', /^Step S1 attaches the file "\.\.\/outside\.md", which cannot be given to it: /);
  });

  it('does not start when the user cancels, also after dismissing the file dialog', async () => {
    assert.equal(await checkAttachments(planWith({ kind: 'file', ref: 'gone.md' }), deps(scriptedUi([undefined]))), undefined);
    const ui = scriptedUi(['Choose another file…', undefined], [undefined]);
    assert.equal(await checkAttachments(planWith({ kind: 'image', ref: 'gone.png' }), deps(ui)), undefined);
    assert.equal(ui.asked.length, 2, 'asked again after the dialog was dismissed');
  });

  it('offers to run without an address its step cannot read, or to cancel, never a file in its place (issue 29)', async () => {
    const ui = scriptedUi(['Run without it']);
    const plan = await checkAttachments(planWith({ kind: 'link', ref: 'ftp://example.com/spec' }, { kind: 'link', ref: 'https://x.dev' }), deps(ui));
    assert.deepEqual(plan?.steps[0]?.attachments, [{ kind: 'link', ref: 'https://x.dev' }]);
    assert.deepEqual(ui.asked, [
      'Step S1 attaches the link "ftp://example.com/spec", which cannot be read: fetch_url reads only http:// and https:// addresses, not "ftp:" ones. Run without it, or cancel the run and correct the address.',
    ]);
    assert.deepEqual(ui.offered, [['Run without it']]);
    const files = scriptedUi(['Run without it']);
    await checkAttachments(planWith({ kind: 'file', ref: 'docs/gone.md' }), deps(files));
    assert.deepEqual(files.offered, [['Choose another file…', 'Run without it']]);
  });
});
