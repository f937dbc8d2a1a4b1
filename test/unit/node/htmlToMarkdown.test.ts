import assert from 'node:assert/strict';
import { htmlShapeLimits, htmlToMarkdown } from '../../../src/node/htmlToMarkdown';

describe('htmlToMarkdown', () => {
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
});
