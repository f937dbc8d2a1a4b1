import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyEditBlocks, editFileTool } from '../../../../src/core/tools/editFileTool';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

const original = 'alpha\nbeta\ngamma\nbeta\ndelta\n';

describe('edit_file', () => {
  it('applies several blocks against the original text', () => {
    assert.equal(
      applyEditBlocks('f.txt', original, [
        { search: 'delta', replace: 'DELTA' },
        { search: 'alpha\n', replace: '' },
        { search: 'gamma', replace: 'gamma\ngamma2' },
      ]),
      'beta\ngamma\ngamma2\nbeta\nDELTA\n',
    );
  });

  it('fails naming a missing block, and applies none', async () => {
    const workspace = createMemoryWorkspace({ 'f.txt': original });
    const ctx = makeToolContext({ workspace });
    await assert.rejects(
      editFileTool.run(ctx, { path: 'f.txt', edits: [{ search: 'alpha', replace: 'A' }, { search: 'epsilon', replace: 'E' }] }, neverAborted),
      /^Error: edit_file changed nothing in f.txt: block 2: its search text was not found \("epsilon"\)/,
    );
    assert.equal(workspace.snapshot()['f.txt'], original);
  });

  it('fails naming a block whose search text is not unique, with its lines', () => {
    assert.throws(
      () => applyEditBlocks('f.txt', original, [{ search: 'gamma', replace: 'G' }, { search: 'beta', replace: 'B' }]),
      /block 2: its search text occurs 2 times \(lines 2, 4\); add surrounding lines so it matches exactly once/,
    );
  });

  it('fails naming duplicated and overlapping blocks', () => {
    assert.throws(() => applyEditBlocks('f.txt', original, [{ search: 'alpha', replace: 'A' }, { search: 'alpha', replace: 'B' }]), /blocks 1 and 2 have the same search text/);
    assert.throws(
      () => applyEditBlocks('f.txt', original, [{ search: 'delta', replace: 'x' }, { search: 'alpha\nbeta', replace: 'A' }, { search: 'beta\ngamma', replace: 'B' }]),
      /blocks 2 and 3 overlap \(both touch line 2\); merge them into one block/,
    );
  });

  it('reports every faulty block at once', () => {
    assert.throws(
      () => applyEditBlocks('f.txt', original, [{ search: 'zzz', replace: '' }, { search: 'beta', replace: '' }, { search: 'delta', replace: '' }]),
      (error: unknown) => /block 1: .*not found/.test(String(error)) && /block 2: .*occurs 2 times/.test(String(error)) && !/block 3/.test(String(error)),
    );
  });

  it('matches LF blocks against a CRLF file and keeps CRLF', () => {
    assert.equal(applyEditBlocks('w.txt', 'one\r\ntwo\r\nthree\r\n', [{ search: 'one\ntwo', replace: 'uno\ndos' }]), 'uno\r\ndos\r\nthree\r\n');
  });

  it('attack: a one-line block replaced by several lines in a CRLF file writes CRLF, not LF lines into it; a mixed file is left as it is', () => {
    assert.equal(applyEditBlocks('w.txt', 'one\r\ntwo\r\n', [{ search: 'one', replace: 'uno\nuna' }]), 'uno\r\nuna\r\ntwo\r\n');
    assert.equal(applyEditBlocks('w.txt', 'one\r\ntwo\r\n', [{ search: 'one', replace: 'uno\r\nuna' }]), 'uno\r\nuna\r\ntwo\r\n');
    assert.equal(applyEditBlocks('w.txt', 'one\r\ntwo\n', [{ search: 'one', replace: 'uno\nuna' }]), 'uno\nuna\r\ntwo\n');
    assert.equal(applyEditBlocks('w.txt', '\none\r\n', [{ search: 'one', replace: 'uno\nuna' }]), '\nuno\nuna\r\n');
    assert.equal(applyEditBlocks('w.txt', 'one two', [{ search: 'one', replace: 'uno\nuna' }]), 'uno\nuna two');
  });

  it('attack: a block starting or ending with a line break in a CRLF file leaves no stray CR (it wrote CR CR LF)', () => {
    assert.equal(applyEditBlocks('f.txt', 'a\r\nb\r\nc\r\n', [{ search: '\nb', replace: '\nB' }]), 'a\r\nB\r\nc\r\n');
    assert.equal(applyEditBlocks('f.txt', 'a\r\nb\r\nc\r\n', [{ search: '\nb', replace: '' }]), 'a\r\nc\r\n');
    assert.equal(applyEditBlocks('f.txt', 'a\r\nb\r\nc\r\n', [{ search: 'b\n', replace: '' }]), 'a\r\nc\r\n');
    // A mixed file is matched as written: a "\n" there may be either kind of line end, and nothing is widened.
    assert.equal(applyEditBlocks('f.txt', 'a\r\nb\nc\n', [{ search: '\nb', replace: '' }]), 'a\r\nc\n');
  });

  it('keeps every line end of a CRLF file a CRLF, whatever line of it a block adds, changes or removes (property)', () => {
    const line = fc.stringMatching(/^[a-z ]{0,6}$/);
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 2, maxLength: 6 }), fc.nat(), fc.constantFrom('before', 'after'), fc.array(line, { maxLength: 3 }), (lines, pick, side, added) => {
        // Numbered and closed, so a line's block matches it alone.
        const numbered = lines.map((entry, index) => `${index}:${entry};`);
        const text = numbered.map((entry) => `${entry}\r\n`).join('');
        const target = numbered[pick % lines.length]!;
        const search = side === 'before' ? `\n${target}` : `${target}\n`;
        // The first line has no line break before it; its block is the one after it.
        const block = side === 'before' && pick % lines.length === 0 ? { search: `${target}\n`, replace: added.map((entry) => `${entry}\n`).join('') } : {
          search,
          replace: side === 'before' ? added.map((entry) => `\n${entry}`).join('') : added.map((entry) => `${entry}\n`).join(''),
        };
        const result = applyEditBlocks('f.txt', text, [block]);
        assert.doesNotMatch(result, /\r(?!\n)|(?<!\r)\n/, JSON.stringify({ text, block, result }));
      }),
    );
  });

  it('refuses a file that does not exist, pointing to write_file', async () => {
    await assert.rejects(editFileTool.run(makeToolContext(), { path: 'nope.ts', edits: [{ search: 'a', replace: 'b' }] }, neverAborted), { code: 'not_found', modelHint: 'Use write_file to create it.' });
  });

  it('never half-applies: either every block is applied or the text is unchanged (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'ab', '\n', 'ba', 'c'), { minLength: 1, maxLength: 30 }).map((parts) => parts.join('')),
        fc.array(fc.record({ search: fc.constantFrom('a', 'b', 'ab', 'c\n', 'bab', 'zz'), replace: fc.constantFrom('', 'X', 'YY') }), { minLength: 1, maxLength: 4 }),
        (text, blocks) => {
          let result: string;
          try {
            result = applyEditBlocks('p.txt', text, blocks);
          } catch {
            return true;
          }
          for (const block of blocks) {
            if (text.split(block.search).length !== 2) return false;
          }
          let expected = text;
          for (const block of blocks) expected = expected.replace(block.search, `\u0001${blocks.indexOf(block)}\u0002`);
          blocks.forEach((block, index) => (expected = expected.replace(`\u0001${index}\u0002`, block.replace)));
          return result === expected;
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('edit_file: what the model is told when a block does not fit', () => {
  it('lists at most five lines of a repeated search text, marking more, and numbers the line a match begins on', () => {
    const six = 'x\n'.repeat(6);
    assert.throws(() => applyEditBlocks('f.txt', six, [{ search: 'x', replace: 'y' }]), { message: 'edit_file changed nothing in f.txt: block 1: its search text occurs 6 times (lines 1, 2, 3, 4, 5, …); add surrounding lines so it matches exactly once.' });
    assert.throws(() => applyEditBlocks('f.txt', 'x\n'.repeat(5), [{ search: 'x', replace: 'y' }]), /occurs 5 times \(lines 1, 2, 3, 4, 5\);/);
    assert.throws(() => applyEditBlocks('f.txt', original, [{ search: '\nbeta', replace: '' }]), /occurs 2 times \(lines 1, 3\)/);
  });

  it('shows the first line of a missing multi-line block, cut after 60 characters', () => {
    assert.throws(() => applyEditBlocks('f.txt', original, [{ search: 'foo\r\nbar', replace: '' }]), /block 1: its search text was not found \("foo" …\); copy the exact current text/);
    assert.throws(() => applyEditBlocks('f.txt', original, [{ search: 'foo\nbar', replace: '' }]), /block 1: its search text was not found \("foo" …\)/);
    const long = 'y'.repeat(61);
    assert.throws(() => applyEditBlocks('f.txt', original, [{ search: long, replace: '' }]), { message: `edit_file changed nothing in f.txt: block 1: its search text was not found ("${'y'.repeat(60)}…"); copy the exact current text, whitespace included, after reading the file.` });
    assert.throws(() => applyEditBlocks('f.txt', original, [{ search: 'y'.repeat(60), replace: '' }]), new RegExp(`\\("${'y'.repeat(60)}"\\)`));
  });

  it('names every problem, separated, and names overlapping blocks in the order they were given', () => {
    assert.throws(
      () => applyEditBlocks('f.txt', original, [{ search: 'beta\ngamma', replace: 'B' }, { search: 'alpha\nbeta', replace: 'A' }, { search: 'zzz', replace: '' }]),
      { message: 'edit_file changed nothing in f.txt: block 3: its search text was not found ("zzz"); copy the exact current text, whitespace included, after reading the file; blocks 1 and 2 overlap (both touch line 2); merge them into one block.' },
    );
  });

  it('applies blocks that touch without overlapping', () => {
    assert.equal(applyEditBlocks('f.txt', original, [{ search: 'beta\ngamma\n', replace: '' }, { search: 'alpha\n', replace: 'A\n' }]), 'A\nbeta\ndelta\n');
  });

  it('matches a block as it is when a file with CRLF has it with LF', () => {
    assert.equal(applyEditBlocks('m.txt', 'one\r\ntwo\nthree\r\n', [{ search: 'two\nthree', replace: '2\n3' }]), 'one\r\n2\n3\r\n');
  });

  it('refuses a missing file with a not-found error', async () => {
    await assert.rejects(editFileTool.run(makeToolContext(), { path: 'nope.ts', edits: [{ search: 'a', replace: 'b' }] }, neverAborted), { code: 'not_found', message: 'nope.ts does not exist, so there is nothing to edit.', modelHint: 'Use write_file to create it.' });
  });
});
