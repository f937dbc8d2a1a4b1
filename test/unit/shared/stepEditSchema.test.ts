import assert from 'node:assert/strict';
import { contextTagsSchema, fieldErrors, newStepSchema, stepPatchSchema, writePatternsSchema } from '../../../src/shared/stepEditSchema';
import { parseWebviewMessage } from '../../../src/shared/panelProtocol';
import { failurePolicies, stepKinds } from '../../../src/shared/vocabulary';

describe('step edit schemas', () => {
  it('accepts exactly the plan schema\'s step kinds and failure policies', () => {
    for (const kind of stepKinds) assert.equal(stepPatchSchema.safeParse({ kind, ...(kind === 'tool' ? { tool: 'read_file' } : {}) }).success, true, kind);
    for (const policy of failurePolicies) assert.equal(stepPatchSchema.safeParse({ onFailure: policy, onVerificationFailure: policy }).success, true, policy);
    assert.equal(stepPatchSchema.safeParse({ kind: 'dance' }).success, false);
    assert.equal(stepPatchSchema.safeParse({ onVerificationFailure: 'explode' }).success, false);
  });

  it('accepts a full patch of a tool step', () => {
    const patch = {
      title: 'Read',
      kind: 'tool',
      tool: 'read_file',
      args: { path: 'a' },
      dependsOn: ['S1'],
      onFailure: 'retry',
      maxAttempts: 3,
      critical: false,
      verification: 'result.length > 0',
      onVerificationFailure: 'skip',
      when: 'true',
      input: 'x',
    };
    assert.deepEqual(stepPatchSchema.parse(patch), patch);
  });

  it('reports one message per field', () => {
    const parsed = stepPatchSchema.safeParse({ title: '', maxAttempts: 0, onFailure: 'explode' });
    assert.equal(parsed.success, false);
    const errors = fieldErrors(parsed.error);
    assert.equal(errors.title, 'Give the step a title.');
    assert.equal(errors.maxAttempts, 'At least one attempt.');
    assert.ok(errors.onFailure);
  });

  it('requires a tool for tool steps, and valid ids', () => {
    assert.equal(newStepSchema.safeParse({ id: 'S1', kind: 'tool', title: 'x' }).success, false);
    assert.equal(newStepSchema.safeParse({ id: 'S1', kind: 'tool', title: 'x', tool: 'list_files' }).success, true);
    assert.equal(newStepSchema.safeParse({ id: 'a b', kind: 'agent', title: 'x' }).success, false);
    assert.equal(stepPatchSchema.safeParse({ dependsOn: ['ok', 'not ok'] }).success, false);
    const reserved = newStepSchema.safeParse({ id: '__proto__', kind: 'agent', title: 'x' });
    assert.equal(reserved.success, false);
    assert.deepEqual(fieldErrors(reserved.error), { id: 'This id is reserved; choose another id.' });
  });

  it('bounds the skills and topics a hostile panel message can name: at most 32 names of at most 64 characters, none blank, no control characters', () => {
    const names = (count: number, length = 8): string[] => Array.from({ length: count }, (_, index) => `s${index}`.padEnd(length, 'x'));
    assert.equal(stepPatchSchema.safeParse({ skills: names(32, 64) }).success, true);
    assert.equal(newStepSchema.safeParse({ id: 'S1', kind: 'agent', title: 'x', skills: names(32) }).success, true);
    const many = stepPatchSchema.safeParse({ skills: names(33) });
    assert.equal(!many.success && fieldErrors(many.error).skills, 'Name at most 32 skills.');
    const long = stepPatchSchema.safeParse({ skills: ['x'.repeat(65)] });
    assert.equal(!long.success && fieldErrors(long.error)['skills.0'], 'Keep each skill name under 65 characters.');
    assert.equal(stepPatchSchema.safeParse({ skills: ['  '] }).success, false);
    const hostile = contextTagsSchema.safeParse(['docs', 'ui\u202etxt']);
    assert.equal(!hostile.success && fieldErrors(hostile.error)['1'], 'Leave control characters out of topic names.');
    assert.equal(stepPatchSchema.safeParse({ skills: ['a\u0007'] }).success, false);
    assert.equal(newStepSchema.safeParse({ id: 'S1', kind: 'agent', title: 'x', skills: 'release' }).success, false, 'a list, not a string');
  });

  it('takes the files a step may change only as relative paths inside the workspace: a hostile panel message cannot widen or escape them', () => {
    assert.deepEqual(writePatternsSchema.parse([' ./src//app/ ', 'docs/**/*.md', 'src/{a,b}.ts']), ['src/app', 'docs/**/*.md', 'src/{a,b}.ts']);
    assert.deepEqual(stepPatchSchema.parse({ writes: [] }), { writes: [] }, 'an empty list (the host removes the scope)');
    const hostile = [
      ['..'], ['a/../../b'], ['./../x'], ['/etc/passwd'], ['//server/share'], ['C:/Windows'], ['c:relative'], ['src\\..\\x'], ['.'], [''], ['  '],
      ['a\u0000b'], ['a\nb'], ['a\u202eb'], ['a\u2066b'], ['a\u009bb'], ['x'.repeat(301)], Array.from({ length: 51 }, (_, index) => `f${index}`),
      'src', [42], [null], [['src']],
    ];
    for (const writes of hostile) {
      const label = JSON.stringify(writes).slice(0, 40);
      assert.equal(stepPatchSchema.safeParse({ writes }).success, false, `patch ${label}`);
      assert.equal(newStepSchema.safeParse({ id: 'S1', kind: 'agent', title: 'x', writes }).success, false, `new step ${label}`);
      const message = parseWebviewMessage({ type: 'edit', edit: { type: 'updateStep', stepId: 'S1', patch: { writes } } });
      assert.equal(message.ok, false, `message ${label}`);
    }
    assert.equal(
      stepPatchSchema.safeParse({ writes: Array.from({ length: 50 }, (_, index) => `f${index}`.padEnd(300, 'x')) }).success,
      true,
      '50 of 300 characters',
    );
    // No message repeats what was sent: a direction character in it would reorder the notice.
    const sneaky = 'src/\u202egpj.exe';
    const parsed = stepPatchSchema.safeParse({ writes: [sneaky, '../x'] });
    assert.ok(!parsed.success);
    for (const issue of parsed.error.issues) assert.doesNotMatch(issue.message, /gpj|\u202e|\.\.\/x/);
  });

  it('refuses a title with a direction override or a control character from the panel, in an edit and a new step, without repeating it', () => {
    for (const title of ['Build \u202elmth.xedni', 'Read\u2066 the notes', 'Bell\u0007', 'Two\nlines']) {
      const patch = stepPatchSchema.safeParse({ title });
      assert.ok(!patch.success, JSON.stringify(title));
      assert.deepEqual(fieldErrors(patch.error), { title: 'Leave control and text-direction characters out of the title.' });
      assert.equal(newStepSchema.safeParse({ id: 'S9', kind: 'agent', title }).success, false, JSON.stringify(title));
    }
    assert.equal(stepPatchSchema.safeParse({ title: 'Lies: שלום, 1 < 2' }).success, true);
  });
});
