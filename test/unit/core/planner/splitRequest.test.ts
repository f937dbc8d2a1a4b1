import assert from 'node:assert/strict';
import { splitRequest } from '../../../../src/core/planner/splitRequest';

describe('splitRequest', () => {
  it('splits on bullets of every kind', () => {
    assert.deepEqual(splitRequest('- a\n* b\n• c\n+ d').parts, ['A', 'B', 'C', 'D']);
  });

  it('splits on numbered lines', () => {
    assert.deepEqual(splitRequest('1. a\n2) b\n(3) c').parts, ['A', 'B', 'C']);
  });

  it('keeps continuation lines with their item', () => {
    assert.deepEqual(splitRequest('1. Write the parser\n   with error recovery\n2. Test it').parts, ['Write the parser\nwith error recovery', 'Test it']);
  });

  it('splits prose at sentence boundaries and removes the sequencing words', () => {
    for (const word of ['Then', 'Next,', 'After that', 'Finally,', 'And then']) {
      assert.deepEqual(splitRequest(`Build it. ${word} ship it.`).parts, ['Build it.', 'Ship it.'], word);
    }
  });

  it('splits at a comma followed by "then" or "and then"', () => {
    assert.deepEqual(splitRequest('Read the file, then fix the bug, and then run tests').parts, ['Read the file', 'Fix the bug', 'Run tests']);
  });

  it('does not split inside version numbers, file names or "Next.js"', () => {
    assert.deepEqual(splitRequest('Upgrade Next.js to 15.2 in package.json').parts, ['Upgrade Next.js to 15.2 in package.json']);
  });

  it('treats prose before a list without a colon as steps', () => {
    assert.deepEqual(splitRequest('Set up the repo.\n- add CI').parts, ['Set up the repo.', 'Add CI']);
  });

  it('keeps prose after a list as steps', () => {
    assert.deepEqual(splitRequest('Tasks:\n- a\n- b\n\nThen deploy.'), { preamble: 'Tasks', parts: ['A', 'B', 'Deploy.'], follows: [false, false, true] });
  });

  it('orders a part after the one before only when the text says so', () => {
    assert.deepEqual(splitRequest('- a\n- b\n- then c').follows, [false, false, true]);
    assert.deepEqual(splitRequest('1. a\n2. b\n3. c').follows, [false, true, true]);
    assert.deepEqual(splitRequest('Build it. Ship it. Next, tell the team.').follows, [false, false, true]);
    assert.deepEqual(splitRequest('Read the file, then fix the bug').follows, [false, true]);
  });

  it('splits "and" between two actions, not inside one or inside quotes', () => {
    assert.deepEqual(splitRequest('Search for legacy and delete src/legacy.js'), { parts: ['Search for legacy', 'Delete src/legacy.js'], follows: [false, true] });
    assert.deepEqual(splitRequest('Run `npm test` and report the results').parts, ['Run `npm test` and report the results']);
    assert.deepEqual(splitRequest('Find and fix the crash').parts, ['Find and fix the crash']);
    assert.deepEqual(splitRequest('Search for "cats and delete dogs"').parts, ['Search for "cats and delete dogs"']);
    assert.deepEqual(splitRequest('- Delete build/old.js and build/new.js').parts, ['Delete build/old.js and build/new.js']);
  });

  it('splits "then" without a comma before a second action, ordering it after the first', () => {
    assert.deepEqual(splitRequest('add a README section then run npm test'), { parts: ['Add a README section', 'Run npm test'], follows: [false, true] });
    assert.deepEqual(splitRequest('Run `lint then test`').parts, ['Run `lint then test`']);
    assert.deepEqual(splitRequest('Say hello then goodbye').parts, ['Say hello then goodbye']);
  });

  it('treats blank-line separated paragraphs as separate steps', () => {
    assert.deepEqual(splitRequest('write docs\n\nrelease it').parts, ['Write docs', 'Release it']);
  });

  it('joins the lines of a sentence, and splits paragraphs also at a line of spaces', () => {
    assert.deepEqual(splitRequest('Write the parser\nwith error recovery.').parts, ['Write the parser with error recovery.']);
    assert.deepEqual(splitRequest('write docs\n   \nrelease it').parts, ['Write docs', 'Release it']);
  });

  it('keeps every line of a lead-in that ends with a colon as the preamble', () => {
    assert.deepEqual(splitRequest('Please help.\nDo the following :\n- a'), { preamble: 'Please help.\nDo the following', parts: ['A'], follows: [false] });
  });

  it('orders a numbered item only after another numbered item, not after prose or a bullet', () => {
    assert.deepEqual(splitRequest('Set up the repo.\n1. add CI').follows, [false, false]);
    assert.deepEqual(splitRequest('1. a\n- b').follows, [false, false]);
    assert.deepEqual(splitRequest('1. a\n\nSome prose.\n2. b').follows, [false, false, false]);
  });

  it('ends an item at a line of spaces: what follows is prose, its lines joined', () => {
    assert.deepEqual(splitRequest('- a\n   \n  more work').parts, ['A', 'More work']);
    assert.deepEqual(splitRequest('- a\n\nDeploy the\nsecond build.').parts, ['A', 'Deploy the second build.']);
    assert.deepEqual(splitRequest('1. Write the parser  \n   with error recovery').parts, ['Write the parser\nwith error recovery']);
  });

  it('drops empty items, and never orders the first part after anything', () => {
    assert.deepEqual(splitRequest('-  \n- a').parts, ['A']);
    assert.deepEqual(splitRequest('Then deploy.'), { parts: ['Deploy.'], follows: [false] });
  });

  it('removes a leading "first" and a sequencing word after leading spaces', () => {
    assert.deepEqual(splitRequest('First, read the file. Then fix it.').parts, ['Read the file.', 'Fix it.']);
    assert.deepEqual(splitRequest('Build it.\n\n   Then deploy.'), { parts: ['Build it.', 'Deploy.'], follows: [false, true] });
  });

  it('does not split at "and" inside backticks, and splits right after quoted text', () => {
    assert.deepEqual(splitRequest('Explain `x and run y` to me').parts, ['Explain `x and run y` to me']);
    assert.deepEqual(splitRequest('Search for "foo bar baz" and delete src/a.js').parts, ['Search for "foo bar baz"', 'Delete src/a.js']);
    assert.deepEqual(splitRequest('  Find and fix the crash').parts, ['Find and fix the crash']);
  });
});
