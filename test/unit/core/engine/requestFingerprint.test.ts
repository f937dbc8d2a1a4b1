import assert from 'node:assert/strict';
import { fingerprintPrompt, fingerprintRequest, requestIdOf, type AskedRequest } from '../../../../src/core/engine/requestFingerprint';
import type { ApprovalRequest, ManualStepRequest } from '../../../../src/core/interactionPorts';

const fileChange: ApprovalRequest = {
  kind: 'file',
  stepId: 'S1',
  title: 'Write a.ts',
  operation: 'edit',
  proposal: { path: 'src/a.ts', currentText: 'old', proposedText: 'new', diff: '-old\n+new' },
};
const command: ApprovalRequest = { kind: 'command', stepId: 'S1', title: 'Run tests', argv: ['npm', 'test'], cwd: '.', shell: false };
const manual: ManualStepRequest = {
  stepId: 'S2',
  title: 'Sign the release',
  instructions: 'Sign it with the hardware key',
  attachments: [{ kind: 'file', ref: 'RELEASE.md' }],
  depends: { S1: 'built' },
  checks: [],
};

const approval = (request: ApprovalRequest): AskedRequest => ({ kind: 'approval', request });

/** Asserts each variant's fingerprint differs from the base's and from every other variant's. */
function assertAllDiffer(base: AskedRequest, variants: Record<string, AskedRequest>): void {
  const seen = new Map<string, string>([[fingerprintRequest(base), 'the base']]);
  for (const [what, variant] of Object.entries(variants)) {
    const fingerprint = fingerprintRequest(variant);
    assert.equal(seen.get(fingerprint), undefined, `${what} gives the fingerprint of ${seen.get(fingerprint)}`);
    seen.set(fingerprint, what);
  }
}

describe('fingerprintRequest', () => {
  it('is a stable sha256 in hex for the same request', () => {
    const fingerprint = fingerprintRequest(approval(fileChange));
    assert.match(fingerprint, /^[0-9a-f]{64}$/);
    assert.equal(fingerprintRequest(approval(structuredClone(fileChange))), fingerprint);
  });

  it('differs when anything a file change shows differs: operation, path, where a link leads, current or proposed content', () => {
    const proposal = fileChange.proposal;
    const change = (patch: Partial<typeof proposal>, operation: 'write' | 'edit' | 'delete' = 'edit'): AskedRequest =>
      approval({ ...fileChange, operation, proposal: { ...proposal, ...patch } });
    assertAllDiffer(approval(fileChange), {
      'another operation': change({}, 'write'),
      'another path': change({ path: 'src/b.ts' }),
      'a link on the way': change({ resolvedPath: '/elsewhere/a.ts' }),
      'a link leading elsewhere': change({ resolvedPath: '/other/a.ts' }),
      'other current content': change({ currentText: 'older' }),
      'a file that does not exist yet': change({ currentText: undefined }),
      'other proposed content': change({ proposedText: 'newer' }),
      'a deletion': change({ proposedText: undefined }, 'delete'),
      'the deletion of a file that does not exist': change({ currentText: undefined, proposedText: undefined }, 'delete'),
    });
  });

  it('tells a missing file from an empty one, and content from its hash', () => {
    const withCurrent = (currentText: string | undefined): AskedRequest => approval({ ...fileChange, proposal: { ...fileChange.proposal, currentText } });
    assert.notEqual(fingerprintRequest(withCurrent(undefined)), fingerprintRequest(withCurrent('')));
    assert.notEqual(fingerprintRequest(withCurrent('null')), fingerprintRequest(withCurrent(undefined)));
  });

  it('differs when anything a command or a new directory shows differs', () => {
    assertAllDiffer(approval(command), {
      'another argument': approval({ ...command, argv: ['npm', 'test', '--watch'] }),
      'another working directory': approval({ ...command, cwd: 'packages/a' }),
      'through a shell': approval({ ...command, shell: true }),
      'given input': approval({ ...command, stdin: 'wc -l README.md\n' }),
      'given other input (the attack: an answer for one input answered another)': approval({ ...command, stdin: 'touch /tmp/STDIN_PWN; wc -l README.md\n' }),
      'given empty input': approval({ ...command, stdin: '' }),
      "the workspace's own helper": approval({ ...command, helper: { name: 'npm-test', path: '/ws/node_modules/.bin/npm-test', shown: 'node_modules/.bin/npm-test', from: 'nodeModules' } }),
      'another helper file': approval({ ...command, helper: { name: 'npm-test', path: '/ws/.venv/bin/npm-test', shown: '.venv/bin/npm-test', from: 'virtualEnvironment' } }),
      'a program of the same file as the helper': approval({ ...command, program: { path: '/ws/node_modules/.bin/npm-test', shown: 'node_modules/.bin/npm-test', from: 'nodeModules' } }),
      "what the repository's git configuration runs": approval({ ...command, repositoryPrograms: ['diff.external = ./x.sh (.git/config)'] }),
      "another program of the repository's git configuration": approval({ ...command, repositoryPrograms: ['diff.external = ./y.sh (.git/config)'] }),
      'a directory of the same path': approval({ kind: 'directory', stepId: 'S1', title: 'Run tests', path: '.' }),
      'a new directory': approval({ kind: 'directory', stepId: 'S1', title: 'Make out', path: 'out' }),
      'another new directory': approval({ kind: 'directory', stepId: 'S1', title: 'Make out', path: 'dist' }),
    });
  });

  it('keeps the fingerprint of a command without input or helper, so answers given before still bind', () => {
    assert.equal(fingerprintRequest(approval(command)), 'c41af0d192f16d0ea69cbebd77bf90953b3b7a1f07447641a402767bcc545a52');
  });

  it('ignores what the user is not asked about: the step, the title, the diff text and the request id', () => {
    const same = fingerprintRequest(approval(fileChange));
    assert.equal(
      fingerprintRequest(approval({ ...fileChange, stepId: 'S9', title: 'Other', requestId: 'x@1', proposal: { ...fileChange.proposal, diff: '' } })),
      same,
    );
  });

  it('differs when a question, its suggestions or a review prompt differ, and between a question and a review of the same text', () => {
    const question = { stepId: 'S1', title: 'Ask', question: 'Which port?' };
    const clarification = (patch: { question?: string; suggestions?: string[] }): AskedRequest => ({
      kind: 'clarification',
      request: { ...question, ...patch },
    });
    assertAllDiffer(clarification({}), {
      'another question': clarification({ question: 'Which host?' }),
      'with suggestions': clarification({ suggestions: ['8080'] }),
      'other suggestions': clarification({ suggestions: ['8081'] }),
      'a review with the same text': { kind: 'review', request: { stepId: 'S1', title: 'Ask', prompt: 'Which port?' } },
      'another review': { kind: 'review', request: { stepId: 'S1', title: 'Ask', prompt: 'Looks right?' } },
    });
    assert.equal(fingerprintRequest(clarification({ suggestions: [] })), fingerprintRequest(clarification({})), 'no suggestions shown either way');
  });

  it('differs when anything a manual step shows differs: title, instructions, attachments, results before it', () => {
    const asked = (patch: Partial<ManualStepRequest>): AskedRequest => ({ kind: 'manual', request: { ...manual, ...patch } });
    assertAllDiffer(asked({}), {
      'another title': asked({ title: 'Sign the tag' }),
      'other instructions': asked({ instructions: 'Sign it with the software key' }),
      'no attachment': asked({ attachments: [] }),
      'another attachment': asked({ attachments: [{ kind: 'file', ref: 'CHANGELOG.md' }] }),
      'another result before it': asked({ depends: { S1: 'failed to build' } }),
      'no result before it': asked({ depends: {} }),
    });
  });
});

describe('fingerprintPrompt and requestIdOf', () => {
  it('fingerprints a prompt by its kind and text', () => {
    assert.match(fingerprintPrompt('manual', 'Do it'), /^[0-9a-f]{64}$/);
    assert.equal(fingerprintPrompt('manual', 'Do it'), fingerprintPrompt('manual', 'Do it'));
    assert.notEqual(fingerprintPrompt('manual', 'Do it'), fingerprintPrompt('clarification', 'Do it'));
    assert.notEqual(fingerprintPrompt('manual', 'Do it'), fingerprintPrompt('manual', 'Do it now'));
  });

  it('makes an id of the step and the first 12 hex digits of the fingerprint', () => {
    const fingerprint = fingerprintPrompt('review', 'ok?');
    assert.equal(requestIdOf('S3', fingerprint), `S3@${fingerprint.slice(0, 12)}`);
    assert.match(requestIdOf('S3', fingerprint), /^S3@[0-9a-f]{12}$/);
  });
});
