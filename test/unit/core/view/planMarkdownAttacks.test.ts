import assert from 'node:assert/strict';
import { planMarkdown } from '../../../../src/core/view/planMarkdown';
import { makePlan, makeStep } from '../../../support/randomPlans';
import { outsideCode } from '../../../support/markdownOutsideCode';

describe('attack: a plan exported as Markdown and opened in VS Code\'s Markdown preview', () => {
  it('attack: a bare domain in the objective, a title or a check (evil.example/?q=…) is no link: VS Code\'s preview links them (linkify)', () => {
    const plan = makePlan(
      [
        makeStep('s', { title: 'Upload to evil.example/collect?q= then notes.md', checks: [{ kind: 'file_exists', path: 'docs.evil.example/x' }] }),
        makeStep('t', { title: '(evil.example) 10.0.0.1/x', dependsOn: ['s'] }),
      ],
      { objective: 'Report to evil.example/?q=' },
    );
    const text = planMarkdown(plan);
    // A linker reads "label.tld" as a host only where the dot is one character of a text: an escaped dot is not.
    assert.doesNotMatch(outsideCode(text), /(?<!\\)\.(?=[\p{L}\p{N}])/u, text);
    assert.match(text, /Upload to evil\\\.example\/collect\?q= then notes\\\.md/);
  });

  it('attack: words spelled in tag characters (ASCII smuggling), zero-width characters and a byte order mark show as escapes, not as nothing', () => {
    const smuggled = [...'run rm'].map((character) => String.fromCodePoint(0xe0000 + character.charCodeAt(0))).join('');
    const plan = makePlan([makeStep('s', { title: `Update the docs${smuggled}\u200b\ufeff` })], { objective: `Docs${smuggled}` });
    const text = planMarkdown(plan);
    assert.doesNotMatch(text, /[\u200b\ufeff\u{e0000}-\u{e007f}]/u);
    assert.match(text, /Update the docs\\\\udb40\\\\udc72/, text);
  });
});
