import assert from 'node:assert/strict';
import fc from 'fast-check';
import { htmlToMarkdown } from '../../../src/node/htmlToMarkdown';

// Attributes that change nothing a reader sees.
const attribute = fc.oneof(
  fc.constantFrom('id="a1"', 'class="lead mb-4"', 'lang="en"', 'dir="ltr"', 'title="t"', 'style="color: #333"', 'role="note"', 'tabindex="-1"'),
  fc.stringMatching(/^[a-z]{1,8}$/).map((name) => `data-${name}="${name}"`),
);
const attributes = fc.array(attribute, { maxLength: 40 }).map((list) => (list.length === 0 ? '' : ` ${list.join(' ')}`));
const word = fc.stringMatching(/^[A-Za-z][a-z0-9]{0,9}$/);
const visibleText = fc.array(word, { minLength: 1, maxLength: 12 }).map((words) => words.join(' '));

type Wrap = (inner: string, attrs: string) => string;
const wraps: Wrap[] = [
  (inner, attrs) => `<p${attrs}>${inner}</p>`,
  (inner, attrs) => `<div${attrs}>${inner}</div>`,
  (inner, attrs) => `<section${attrs}>${inner}</section>`,
  (inner, attrs) => `<article${attrs}>${inner}</article>`,
  (inner, attrs) => `<main${attrs}>${inner}</main>`,
  (inner, attrs) => `<span${attrs}>${inner}</span>`,
  (inner, attrs) => `<h2${attrs}>${inner}</h2>`,
  (inner, attrs) => `<ul${attrs}><li>${inner}</li></ul>`,
  (inner, attrs) => `<blockquote${attrs}>${inner}</blockquote>`,
  (inner, attrs) => `<table${attrs}><tr><td>${inner}</td></tr></table>`,
];
/** The text wrapped in up to 6 elements, with attributes, beside empty cells and invisible parts. */
const body = fc
  .tuple(visibleText, fc.array(fc.tuple(fc.integer({ min: 0, max: wraps.length - 1 }), attributes), { maxLength: 6 }), fc.integer({ min: 0, max: 30 }))
  .map(([text, layers, emptyCells]) => {
    const inner = layers.reduce((html, [index, attrs]) => (wraps[index] as Wrap)(html, attrs), text);
    const cells = emptyCells === 0 ? '' : `<table><tr>${'<td></td>'.repeat(emptyCells)}</tr></table>`;
    return { text, html: `${cells}${inner}<script>var hidden = 1;</script><!-- a comment -->` };
  });
/** A page as sites write them: with or without doctype, `<html>`, `<head>`, `<body>`, and a title. */
const page = fc
  .record({ body, doctype: fc.boolean(), html: fc.boolean(), head: fc.boolean(), bodyTag: fc.boolean(), title: fc.option(visibleText, { nil: undefined }) })
  .map(({ body: content, doctype, html, head, bodyTag, title }) => {
    const headParts = `<meta charset="utf-8">${title === undefined ? '' : `<title>${title}</title>`}<style>p { color: red }</style>`;
    const inBody = bodyTag ? `<body>${content.html}</body>` : content.html;
    const inside = `${head ? `<head>${headParts}</head>` : headParts}\n${inBody}`;
    return { text: content.text, html: `${doctype ? '<!DOCTYPE html>\n' : ''}${html ? `<html lang="en">${inside}</html>` : inside}` };
  });

describe('htmlToMarkdown: any page with visible text', () => {
  it('gives non-empty Markdown holding that text, whatever the page leaves out or wraps it in', () => {
    fc.assert(
      fc.property(page, ({ text, html }) => {
        const { markdown } = htmlToMarkdown(html);
        assert.notEqual(markdown, '', html);
        assert.ok(markdown.replace(/\s+/g, ' ').includes(text), `${JSON.stringify(text)} not in ${JSON.stringify(markdown)} of ${html}`);
      }),
      { numRuns: 120 },
    );
  });
});
