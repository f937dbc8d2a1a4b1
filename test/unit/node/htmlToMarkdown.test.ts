import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { htmlShapeLimits, htmlToMarkdown } from '../../../src/node/htmlToMarkdown';

const fixture = (name: string): string => readFileSync(join(__dirname, '../../fixtures/html', name), 'utf8');

describe('htmlToMarkdown', () => {
  it('converts a page whose body is implied (no <body> tag): a wide table', () => {
    const page = htmlToMarkdown(fixture('wideTable.html'));
    assert.equal(page.title, 'Build matrix');
    for (const cell of ['Platform', 'VS Code 1.100', 'Dev Containers', 'Notes', 'all green', 'flaky', 'one retry on Web']) {
      assert.ok(page.markdown.includes(cell), `${cell} in ${page.markdown}`);
    }
  });

  it('converts a page of one paragraph with many attributes and no <html>, <head> or <body>', () => {
    assert.deepEqual(htmlToMarkdown(fixture('manyAttributes.html')), {
      markdown: 'Task Planner turns a request into a plan of steps you can review before anything runs.',
    });
  });

  it('converts a page of a title and one paragraph (HTML5 leaves out <html>, <head> and <body>)', () => {
    assert.deepEqual(htmlToMarkdown(fixture('titleAndParagraph.html')), {
      title: 'Release notes',
      markdown: 'Version 2.1 fixes the undo of renamed files.',
    });
  });

  it('keeps the title of a page with nothing else, and gives no content', () => {
    assert.deepEqual(htmlToMarkdown('<title>Only a title</title>'), { title: 'Only a title', markdown: '' });
  });

  it('converts a page without an article whole, with its title', () => {
    assert.deepEqual(htmlToMarkdown('<html><head><title>T</title></head><body><h2>Short</h2><p>A <a href="/x">link</a>.</p></body></html>'), {
      title: 'T',
      markdown: '## Short\n\nA [link](/x).',
    });
  });

  it('gives a page nested deeper than real articles as its text, without handing it to the libraries', () => {
    const depth = htmlShapeLimits.maxDepth + 1;
    const page = htmlToMarkdown(`<html><body>${'<div>'.repeat(depth)}deep &amp; text${'</div>'.repeat(depth)}</body></html>`);
    assert.deepEqual(page, { markdown: 'deep & text' });
  });

  it('gives a page of stray "<" or too many elements as its text', () => {
    assert.equal(htmlToMarkdown('<'.repeat(100_000)).markdown, '<'.repeat(100_000));
    assert.equal(
      htmlToMarkdown(`<body>${'<p>a</p>\n'.repeat(htmlShapeLimits.maxElements + 1)}</body>`).markdown,
      'a\n'.repeat(htmlShapeLimits.maxElements + 1).trim(),
    );
  });

  it('gives a page with more "&", "<", ">" or no-break spaces in its text than the limit as its text, without handing it to the libraries', () => {
    // Each such character became a DOM node of its own: 2 MB of "&#" held the event loop for a minute, then overflowed the stack.
    for (const unit of ['&#', 'x&amp;', 'x>', 'x\u00a0', 'x&lt;']) {
      const html = `<title>T</title><h2>Head</h2><p>${unit.repeat(htmlShapeLimits.maxEntities + 1)}</p>`;
      const page = htmlToMarkdown(html);
      assert.equal(page.title, undefined, `${JSON.stringify(unit)} went to Readability`);
      assert.ok(page.markdown.startsWith('T Head '), JSON.stringify(unit));
    }
    assert.equal(htmlToMarkdown(`<title>T</title><h2>Head</h2><p>${'x&amp;'.repeat(1000)}</p>`).markdown, `## Head\n\n${'x&'.repeat(1000)}`);
  });

  it('gives a page with more text times depth than the limit as its text, so the libraries never read a long text once per level', () => {
    const depth = 200;
    const words = 'word '.repeat(Math.ceil(htmlShapeLimits.maxTextDepth / depth / 5) + 1);
    const page = htmlToMarkdown(`<title>T</title>${'<div>'.repeat(depth)}<h2>Head</h2>${words}${'</div>'.repeat(depth)}`);
    assert.equal(page.title, undefined, 'went to Readability');
    assert.equal(page.markdown, `T Head ${words.trim()}`);
    const shallow = htmlToMarkdown(`<title>T</title><div><h2>Head</h2>${'word '.repeat(1000)}</div>`);
    assert.equal(shallow.title, 'T');
  });
});
