// The review shows a step as it runs: a plan's text (a model's, a plan file's) with a direction override, a zero-width
// character or a control character cannot make a command, an input or a title read as something else.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { nothing, type TemplateResult } from 'lit';
import type { StepView } from '../../../src/shared/panelViewModel';
import { shownText } from '../../../webview/formatting';

/** What `renderStepCard` is called with here (its context's callbacks do nothing). */
type RenderStepCard = (step: StepView, ctx: { total: number; editing: boolean; added: boolean; changedFields: undefined; send(): void; edit(): void }, editor: typeof nothing) => TemplateResult;

/** `renderStepCard`, loaded by name: its module uses DOM types, which the test program leaves out. */
function stepCardRenderer(): RenderStepCard {
  return (createRequire(__filename)('../../../webview/stepCard') as { renderStepCard: RenderStepCard }).renderStepCard;
}

/** The markup and text a template would render, its values inserted as they are given to lit. */
function rendered(value: unknown): string {
  if (value === nothing || value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(rendered).join('');
  if (typeof value === 'object' && 'strings' in value && 'values' in value) {
    const template = value as TemplateResult;
    return template.strings.map((part, index) => part + (index < template.values.length ? rendered(template.values[index]) : '')).join('');
  }
  return typeof value === 'function' ? '' : String(value);
}

const hidden = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

describe('shownText', () => {
  it('shows direction, zero-width and control characters as escapes, and keeps tabs, line feeds and right-to-left letters', () => {
    assert.equal(shownText('rm -rf \u202e/ dliub\u202c'), 'rm -rf \\u202e/ dliub\\u202c');
    assert.equal(shownText('a\u200bb\u2066c\u2069\ufeff\u0007\u009b'), 'a\\u200bb\\u2066c\\u2069\\ufeff\\u0007\\u009b');
    assert.equal(shownText('line 1\n\tline 2 שלום'), 'line 1\n\tline 2 שלום');
  });

  it("a step card shows a plan's hidden characters as escapes: title, tool, arguments, input, verification and condition", () => {
    const renderStepCard = stepCardRenderer();
    const rlo = '\u202e';
    const step: StepView = {
      id: 'S1',
      index: 0,
      title: `Build ${rlo}lmth.xedni${'\u202c'}`,
      kind: 'tool',
      runner: 'run_command',
      tool: `run_command${'\u200b'}`,
      arguments: [{ name: `argv${'\u2067'}`, text: `["rm","-rf","${rlo}/ dliub"]`, block: false }],
      input: `Summarise${'\u2066'} the notes`,
      dependsOn: [],
      onFailure: 'stop',
      maxAttempts: 1,
      critical: true,
      verification: `result.ok${'\ufeff'}`,
      onVerificationFailure: 'stop',
      when: { text: `true${'\u202d'}`, code: true },
      skipped: false,
      approval: 'asks',
      problems: [],
    };
    const context = { total: 2, editing: false, added: false, changedFields: undefined, send: () => undefined, edit: () => undefined };
    const agentStep: StepView = { ...step, id: 'S2', index: 1, kind: 'agent', runner: 'agent', agent: `default${'\u2068'}` };
    const card = [step, agentStep].map((shown) => rendered(renderStepCard(shown, context, nothing))).join('');
    assert.equal(hidden.exec(card)?.[0], undefined, 'a hidden character reached the page');
    for (const escape of ['\\u202e', '\\u200b', '\\u2067', '\\u2066', '\\ufeff', '\\u202d', '\\u2068']) assert.ok(card.includes(escape), `${escape} is not shown`);
  });
});
