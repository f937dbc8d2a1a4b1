import assert from 'node:assert/strict';
import { defaultAttachmentLimits } from '../../../../src/core/agent/attachmentSection';
import { stepContextSections, withSection } from '../../../../src/core/agent/stepContextSections';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makeStep } from '../../../support/randomPlans';

const signal = new AbortController().signal;

describe('stepContextSections: attachment limits', () => {
  it('cuts the step\'s attachments to the limits it is given, and to the defaults otherwise', async () => {
    const workspace = createMemoryWorkspace({ 'notes.txt': `${'a'.repeat(50)}TAIL` });
    const step = makeStep('s', { kind: 'agent', attachments: [{ kind: 'file', ref: 'notes.txt' }] });
    const options = { agentTools: [], strategy: 'react' as const, workspace, signal };
    const whole = await stepContextSections(step, options);
    assert.match(whole.user, /TAIL/);
    const cut = await stepContextSections(step, { ...options, limits: { ...defaultAttachmentLimits, fileChars: 20 } });
    assert.match(cut.user, /notes\.txt/);
    assert.doesNotMatch(cut.user, /TAIL/);
  });

  it('gives a step without attachments no attachment section and no images', async () => {
    const sections = await stepContextSections(makeStep('s', { kind: 'agent' }), { agentTools: [], strategy: 'react', workspace: createMemoryWorkspace(), signal });
    assert.equal(sections.user, '');
    assert.deepEqual(sections.images, []);
  });
});

describe('withSection', () => {
  it('adds a section after one blank line, keeping the start of the text, and leaves the text alone for an empty section', () => {
    assert.equal(withSection('  Base text.\n\n\n', 'Section.'), '  Base text.\n\nSection.');
    assert.equal(withSection('Base text.\n', ''), 'Base text.\n');
  });
});
