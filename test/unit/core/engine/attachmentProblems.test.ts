import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findAttachmentProblems, replaceAttachment } from '../../../../src/core/engine/attachmentProblems';
import type { Attachment, Plan } from '../../../../src/core/plan/planSchema';
import { withStepDefaults } from '../../../../src/core/plan/planSchema';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';

function planWith(...attachments: Attachment[][]): Plan {
  return {
    id: 'p',
    version: 1,
    objective: 'o',
    createdAt: '2026-01-01T00:00:00.000Z',
    agents: {},
    steps: attachments.map((list, index) => withStepDefaults({ id: `S00${index + 1}`, kind: 'agent', input: 'x', attachments: list })),
  };
}

describe('findAttachmentProblems', () => {
  let root: string;
  let outside: string;
  before(() => {
    const base = mkdtempSync(join(tmpdir(), 'attachments-'));
    root = join(base, 'ws');
    outside = join(base, 'outside');
    mkdirSync(join(root, 'docs'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(root, 'docs', 'notes.md'), 'notes');
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'leak.txt'));
    symlinkSync(join(root, 'docs', 'notes.md'), join(root, 'inside-link.md'));
  });
  after(() => rmSync(join(root, '..'), { recursive: true, force: true }));

  it('passes files, selections, images inside the workspace and every URL', async () => {
    const plan = planWith([
      { kind: 'file', ref: 'docs/notes.md' },
      { kind: 'file', ref: 'docs/notes.md#L1-L2' },
      { kind: 'file', ref: 'inside-link.md' },
      { kind: 'link', ref: 'https://example.com/missing' },
      { kind: 'image', ref: 'https://example.com/a.png' },
    ]);
    assert.deepEqual(await findAttachmentProblems(plan, createNodeWorkspace(root)), []);
  });

  it('names an attached address its step cannot read as written, without fetching anything (issue 29, seed 000)', async () => {
    const plan = planWith([
      { kind: 'link', ref: 'example.com/spec' },
      { kind: 'link', ref: 'ftp://example.com/spec.pdf' },
      { kind: 'link', ref: 'https://user:secret@example.com/' },
      { kind: 'image', ref: 'http://169.254.169.254/latest/meta-data' },
      { kind: 'link', ref: 'http://localhost:8080/docs' },
      { kind: 'image', ref: 'data:image/png;base64,iVBORw0KGgo=' },
    ]);
    const problems = await findAttachmentProblems(plan, createMemoryWorkspace({}));
    assert.deepEqual(
      problems.map((problem) => [problem.reason, problem.message]),
      [
        [
          'bad_url',
          'Step S001 attaches the link "example.com/spec", which cannot be read: "example.com/spec" is not a URL: give a full address such as https://example.com/page.',
        ],
        [
          'bad_url',
          'Step S001 attaches the link "ftp://example.com/spec.pdf", which cannot be read: fetch_url reads only http:// and https:// addresses, not "ftp:" ones.',
        ],
        [
          'bad_url',
          'Step S001 attaches the link "https://user:secret@example.com/", which cannot be read: fetch_url does not send credentials: remove the user name and password from the address.',
        ],
        [
          'bad_url',
          'Step S001 attaches the image "http://169.254.169.254/latest/meta-data", which cannot be read: fetch_url does not read from 169.254.169.254: link-local, unspecified, multicast and reserved addresses are refused.',
        ],
      ],
    );
  });

  it('names a missing file, a directory and the step', async () => {
    const plan = planWith([{ kind: 'file', ref: 'docs/gone.md' }], [{ kind: 'image', ref: 'docs' }]);
    const problems = await findAttachmentProblems(plan, createNodeWorkspace(root));
    assert.deepEqual(
      problems.map((problem) => [problem.stepId, problem.reason, problem.message]),
      [
        ['S001', 'missing', 'Step S001 attaches the file "docs/gone.md", which does not exist in the workspace.'],
        ['S002', 'not_a_file', 'Step S002 attaches the image "docs", which is a directory, not a file.'],
      ],
    );
  });

  it('refuses a link that leads out of the workspace, and a path that climbs out', async () => {
    const plan = planWith([{ kind: 'file', ref: 'leak.txt' }, { kind: 'file', ref: '../outside/secret.txt' }]);
    const problems = await findAttachmentProblems(plan, createNodeWorkspace(root));
    assert.deepEqual(problems.map((problem) => problem.reason), ['outside', 'outside']);
    assert.match(problems[0]!.message, /^Step S001 attaches the file "leak\.txt", which cannot be given to it: /);
    assert.ok(!problems[0]!.message.includes('secret'), problems[0]!.message);
  });

  it('shows control characters in a file name as escapes, never raw', async () => {
    const plan = planWith([{ kind: 'file', ref: 'docs/evil\u001b[31mname\u202e.md' }]);
    const [problem] = await findAttachmentProblems(plan, createNodeWorkspace(root));
    assert.equal(problem?.reason, 'outside');
    assert.ok(problem.message.includes('docs/evil\\u001b[31mname\\u202e.md'), problem.message);
    assert.doesNotMatch(problem.message, /[\u0000-\u001f\u202e]/);
  });

  it('does not need the file of a selection that kept its text', async () => {
    const plan = planWith([{ kind: 'file', ref: 'gone.md#L1-L2', text: 'kept' }, { kind: 'file', ref: 'gone.md#L3-L4' }]);
    assert.deepEqual((await findAttachmentProblems(plan, createNodeWorkspace(root))).map((problem) => problem.attachment.ref), ['gone.md#L3-L4']);
  });

  it('leaves skipped steps out', async () => {
    const plan = planWith([{ kind: 'file', ref: 'gone.md' }]);
    plan.steps[0]!.skipped = true;
    assert.deepEqual(await findAttachmentProblems(plan, createNodeWorkspace(root)), []);
  });
});

describe('replaceAttachment', () => {
  const plan = planWith([{ kind: 'file', ref: 'a.md' }, { kind: 'link', ref: 'https://x.dev' }], [{ kind: 'file', ref: 'a.md' }]);

  it('puts the chosen file in the missing one\'s place, as the next version', () => {
    const next = replaceAttachment(plan, 'S001', { kind: 'file', ref: 'a.md' }, { kind: 'file', ref: 'b.md', label: 'b.md' });
    assert.deepEqual(next.steps[0]!.attachments, [{ kind: 'file', ref: 'b.md', label: 'b.md' }, { kind: 'link', ref: 'https://x.dev' }]);
    assert.equal(next.version, 2);
    assert.equal(next.steps[1], plan.steps[1], 'another step with the same attachment keeps it');
  });

  it('removes it when the user runs without it, and leaves a plan without it as it is', () => {
    assert.deepEqual(replaceAttachment(plan, 'S001', { kind: 'file', ref: 'a.md' }, undefined).steps[0]!.attachments, [{ kind: 'link', ref: 'https://x.dev' }]);
    assert.equal(replaceAttachment(plan, 'S001', { kind: 'file', ref: 'zzz.md' }, undefined), plan);
    assert.equal(replaceAttachment(plan, 'S009', { kind: 'file', ref: 'a.md' }, undefined), plan);
  });
});

describe('findAttachmentProblems when the workspace cannot look', () => {
  it('says a file could not be read, with the reason, and lets a cancellation through', async () => {
    const failing = { ...createMemoryWorkspace(), stat: () => Promise.reject(new Error('EACCES: permission denied')) };
    const plan = planWith([{ kind: 'file', ref: 'locked.md' }]);
    assert.deepEqual(
      (await findAttachmentProblems(plan, failing)).map((problem) => [problem.reason, problem.message]),
      [['unreadable', 'Step S001 attaches the file "locked.md", which cannot be read: EACCES: permission denied.']],
    );
    const cancel = new AbortController();
    cancel.abort(new Error('cancelled'));
    await assert.rejects(findAttachmentProblems(plan, failing, cancel.signal), /cancelled/);
  });
});
