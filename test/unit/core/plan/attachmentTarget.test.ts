import assert from 'node:assert/strict';
import { attachmentTarget, shownRef } from '../../../../src/core/plan/attachmentTarget';

describe('attachmentTarget', () => {
  it('takes every link, and http(s) or data refs of files and images, as URLs', () => {
    assert.deepEqual(attachmentTarget({ kind: 'link', ref: 'docs/readme.md' }), { kind: 'url', url: 'docs/readme.md' });
    assert.deepEqual(attachmentTarget({ kind: 'image', ref: 'HTTPS://x.dev/a.png' }), { kind: 'url', url: 'HTTPS://x.dev/a.png' });
    assert.deepEqual(attachmentTarget({ kind: 'file', ref: 'http://x.dev/a.txt' }), { kind: 'url', url: 'http://x.dev/a.txt' });
    assert.deepEqual(attachmentTarget({ kind: 'image', ref: 'data:image/png;base64,AAAA' }), { kind: 'url', url: 'data:image/png;base64,AAAA' });
  });

  it('reads a path and a selection\'s line range, one line or a range written backwards', () => {
    assert.deepEqual(attachmentTarget({ kind: 'file', ref: 'src/a.ts' }), { kind: 'path', path: 'src/a.ts' });
    assert.deepEqual(attachmentTarget({ kind: 'file', ref: 'src/a.ts#L3-L7' }), { kind: 'path', path: 'src/a.ts', lines: { from: 3, to: 7 } });
    assert.deepEqual(attachmentTarget({ kind: 'file', ref: 'src/a.ts#L9-4' }), { kind: 'path', path: 'src/a.ts', lines: { from: 4, to: 9 } });
    assert.deepEqual(attachmentTarget({ kind: 'file', ref: 'src/a.ts#L5' }), { kind: 'path', path: 'src/a.ts', lines: { from: 5, to: 5 } });
    assert.deepEqual(attachmentTarget({ kind: 'file', ref: 'notes#L5x' }), { kind: 'path', path: 'notes#L5x' });
    assert.deepEqual(attachmentTarget({ kind: 'file', ref: 'x#L1234567890' }), { kind: 'path', path: 'x#L1234567890' });
  });
});

describe('shownRef', () => {
  it('shows control, C1 and direction characters as escapes and keeps the rest', () => {
    assert.equal(shownRef('a\u0000b\u001b[1m\u007f\u0085\u202ez/é'), 'a\\u0000b\\u001b[1m\\u007f\\u0085\\u202ez/é');
  });

  it('keeps 300 characters at most, the cut shown', () => {
    assert.equal(shownRef('x'.repeat(300)), 'x'.repeat(300));
    assert.equal(shownRef('x'.repeat(301)), `${'x'.repeat(299)}…`);
  });
});
