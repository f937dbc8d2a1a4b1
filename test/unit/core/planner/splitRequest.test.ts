import assert from 'node:assert/strict';
import { splitRequest } from '../../../../src/core/planner/splitRequest';
import { heuristicPlan } from '../../../../src/core/planner/heuristicPlan';

describe('splitRequest', () => {
  // A trial (2026-12-07): listed with commas, these four actions were one step for you; joined by "then", tool steps.
  it('splits a list of actions at its commas, in order, but not a list of the things one action acts on', () => {
    const request = 'Create an empty file docs/usage.md, delete CHANGELOG.md, add a line "## 0.4.0, final" to the top of README.md, then run node src/cli.js list';
    const split = splitRequest(request);
    assert.deepEqual(split.parts, ['Create an empty file docs/usage.md', 'Delete CHANGELOG.md', 'Add a line "## 0.4.0, final" to the top of README.md', 'Run node src/cli.js list']);
    assert.deepEqual(split.follows, [false, true, true, true]);
    assert.deepEqual(heuristicPlan(request).steps.map((step) => step.tool ?? step.kind), ['write_file', 'delete_file', 'manual', 'run_command']);
    assert.deepEqual(splitRequest('Read a.md, b.md and c.md').parts, ['Read a.md, b.md and c.md']);
    assert.deepEqual(splitRequest('If the build fails, fix it').parts, ['If the build fails, fix it']);
    assert.deepEqual(splitRequest('Document the add, list and search commands').parts, ['Document the add, list and search commands']);
  });

  it('splits on bullets of every kind', () => {
    assert.deepEqual(splitRequest('- a\n* b\n• c\n+ d').parts, ['A', 'B', 'C', 'D']);
  });

  it('splits on numbered lines', () => {
    assert.deepEqual(splitRequest('1. a\n2) b\n(3) c').parts, ['A', 'B', 'C']);
  });

  it('reads a numbered list written on one line ("1. … 2. …", numbers in order) as a list, the text before it as its lead', () => {
    assert.deepEqual(splitRequest('1. Read the README 2. List the files 3. Write notes.md'), {
      parts: ['Read the README', 'List the files', 'Write notes.md'],
      follows: [false, true, true],
    });
    assert.deepEqual(splitRequest('Do this: 1) Read the README 2) List the files'), { preamble: 'Do this', parts: ['Read the README', 'List the files'], follows: [false, true] });
    assert.deepEqual(splitRequest('Use Python 3. 1. Read a.py 2. Read b.py').parts, ['Use Python 3.', 'Read a.py', 'Read b.py']);
    // One number, or numbers out of order, make no list.
    assert.deepEqual(splitRequest('Read chapter 1. Then write a summary.').parts, ['Read chapter 1.', 'Write a summary.']);
    assert.deepEqual(splitRequest('Bump 2. to 3. in setup.py').parts, ['Bump 2. to 3. in setup.py']);
  });

  it('ends no step on the comma or semicolon left before a split', () => {
    assert.deepEqual(splitRequest('Create empty files todo.md and ideas.md, and list the files in src.').parts, [
      'Create empty files todo.md and ideas.md',
      'List the files in src.',
    ]);
    assert.deepEqual(splitRequest('Create notes.md; then list the files').parts, ['Create notes.md', 'List the files']);
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

  it('does not split at "and" between two verbs: one action, or a list of names (a newcomer lost "and search commands")', () => {
    assert.deepEqual(splitRequest('Create a file docs/commands.md listing the add, list and search commands').parts, [
      'Create a file docs/commands.md listing the add, list and search commands',
    ]);
    assert.deepEqual(splitRequest('Update the CHANGELOG with an entry that says list and search print tags').parts, [
      'Update the CHANGELOG with an entry that says list and search print tags',
    ]);
    assert.deepEqual(splitRequest('Please read and summarize README.md and delete notes.txt').parts, ['Please read and summarize README.md', 'Delete notes.txt']);
    // "then" orders what follows whatever stands before it.
    assert.deepEqual(splitRequest('Please build then test the app').parts, ['Please build', 'Test the app']);
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

  it('splits German, French, Spanish, Portuguese, Chinese and Japanese requests at their sequencing words (issue 29)', () => {
    const cases: [string, string[]][] = [
      ['Lies README.md. Danach führe `npm test` aus.', ['Lies README.md.', 'Führe `npm test` aus.']],
      ['Lies README.md und dann führe `npm test` aus', ['Lies README.md', 'Führe `npm test` aus']],
      ['Aktualisiere CHANGELOG.md, anschließend führe `npm test` aus', ['Aktualisiere CHANGELOG.md', 'Führe `npm test` aus']],
      ['Lis README.md puis lance `npm test`', ['Lis README.md', 'Lance `npm test`']],
      ['Corrige le bug. Ensuite, exécute `npm test`', ['Corrige le bug.', 'Exécute `npm test`']],
      ['Lee README.md y luego ejecuta `npm test`', ['Lee README.md', 'Ejecuta `npm test`']],
      ['Actualiza el changelog, después ejecuta `npm test`', ['Actualiza el changelog', 'Ejecuta `npm test`']],
      ['Leia o README.md e depois execute `npm test`', ['Leia o README.md', 'Execute `npm test`']],
      ['Atualize o CHANGELOG.md. Em seguida, rode `pytest`', ['Atualize o CHANGELOG.md.', 'Rode `pytest`']],
      ['读取 README.md，然后运行 `npm test`', ['读取 README.md', '运行 `npm test`']],
      ['读取 README.md 然后运行 `npm test`，之后更新 CHANGELOG.md', ['读取 README.md', '运行 `npm test`', '更新 CHANGELOG.md']],
      ['修复登录错误。接着运行测试。最后提交', ['修复登录错误。', '运行测试。', '提交']],
      ['README.mdを読んで、それから`npm test`を実行して', ['README.mdを読んで', '`npm test`を実行して']],
      ['まずREADME.mdを更新して。次に`pytest`を実行して。', ['README.mdを更新して。', '`pytest`を実行して。']],
    ];
    for (const [text, parts] of cases) {
      const split = splitRequest(text);
      assert.deepEqual(split.parts, parts, text);
      assert.deepEqual(split.follows, parts.map((_, index) => index > 0), text);
    }
  });

  it('splits Chinese and Japanese lists numbered with 、 or （1）, and bulleted with ・', () => {
    assert.deepEqual(splitRequest('1、更新 CHANGELOG.md\n2、运行 `npm test`'), { parts: ['更新 CHANGELOG.md', '运行 `npm test`'], follows: [false, true] });
    assert.deepEqual(splitRequest('（1）更新文档\n（2）运行测试').parts, ['更新文档', '运行测试']);
    assert.deepEqual(splitRequest('一、更新文档\n二、运行测试').parts, ['更新文档', '运行测试']);
    assert.deepEqual(splitRequest('・READMEを更新\n・テストを実行'), { parts: ['READMEを更新', 'テストを実行'], follows: [false, false] });
  });

  it('does not split a condition, "after X", or a sequencing word that stands after its verb', () => {
    assert.deepEqual(splitRequest('Wenn die Tests fehlschlagen, dann behebe sie').parts, ['Wenn die Tests fehlschlagen, dann behebe sie']);
    assert.deepEqual(splitRequest('If it fails, then revert the change').parts, ['If it fails, then revert the change']);
    assert.deepEqual(splitRequest('Después de actualizar, ejecuta `npm test`').parts, ['Después de actualizar, ejecuta `npm test`']);
    assert.deepEqual(splitRequest('Führe `npm test` aus und behebe danach die Fehler').parts, ['Führe `npm test` aus und behebe danach die Fehler']);
    assert.deepEqual(splitRequest('Add a link, next to the logo').parts, ['Add a link, next to the logo']);
  });

  it('splits "and fix …" after a command, but keeps "and report the results" with it', () => {
    assert.deepEqual(splitRequest('Run `npm test` and fix the failures'), { parts: ['Run `npm test`', 'Fix the failures'], follows: [false, true] });
    assert.deepEqual(splitRequest('run the tests and fix the failure').parts, ['Run the tests', 'Fix the failure']);
    assert.deepEqual(splitRequest('Run `npm test` and report the failures').parts, ['Run `npm test` and report the failures']);
  });
});

describe('splitRequest: long runs in linear time (ReDoS)', () => {
  it('keeps a request padded with spaces (over a minute before) as one part', () => {
    const spaces = ' '.repeat(50_000);
    assert.deepEqual(splitRequest(`do a${spaces}b`).parts, [`Do a${spaces}b`]);
  });

  it('reads long runs of commas and of numbered marks in linear time', () => {
    assert.deepEqual(splitRequest(`do a${','.repeat(50_000)}b`).parts.length, 1);
    assert.deepEqual(splitRequest(`do a${','.repeat(50_000)}`).parts, ['Do a']);
    const marks = Array.from({ length: 20_000 }, (_, index) => `${(index % 99) + 1}. x`).join(' ');
    assert.ok(splitRequest(marks).parts.length > 1);
    assert.ok(splitRequest(`1.${' '.repeat(50_000)}`).parts.length <= 1);
  });
});
