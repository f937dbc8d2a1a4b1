// Issue 27, E3 to E6: what the editor's own dialogs, tabs and pickers show of text from a model or a plan.
import assert from 'node:assert/strict';
import { describeCheckCommand, type CheckCommand } from '../../../src/core/engine/checkCommandConsent';
import { commandsToAskAtStart, shownLine, shownPath, shownProse, shownQuestion, shownSuggestion, startQuestionShown, withoutIcons } from '../../../src/vscode/shownText';

describe('commandsToAskAtStart (E3: never allow more than the user can see at once)', () => {
  const command = (name: string, cwd = ''): CheckCommand => ({ argv: ['node', name], cwd });

  it('lists at most five commands in one question: of 20 look-alikes, the others ask when they run', () => {
    const twenty = Array.from({ length: 20 }, (_, index) => command(index === 13 ? 'scripts/cleanup.js' : `test/check-${index}.js`));
    const asked = commandsToAskAtStart(twenty, describeCheckCommand);
    assert.equal(asked.length, startQuestionShown.commands);
    assert.deepEqual(asked, twenty.slice(0, 5));
    assert.ok(!asked.includes(twenty[13]!), 'the harmful 14th command is allowed by the one Enter');
  });

  it('bounds the listed text too: long commands make fewer per question, the first is always asked', () => {
    const long = (index: number): CheckCommand => command(`${'x'.repeat(250)}-${index}.js`);
    const asked = commandsToAskAtStart([long(1), long(2), long(3), long(4)], describeCheckCommand);
    assert.equal(asked.length, 2);
    assert.ok(asked.map(describeCheckCommand).join('').length <= startQuestionShown.chars);
    assert.deepEqual(commandsToAskAtStart([command('x'.repeat(390))], describeCheckCommand).length, 1);
    assert.deepEqual(commandsToAskAtStart([], describeCheckCommand), []);
  });
});

describe('shownProse (E5: the review prompt where it can be read)', () => {
  it('collapses 40 blank lines (and blank-looking ones) so the real sentence is in sight', () => {
    const prompt = `Looks fine.${'\n'.repeat(40)}   \u200b\n\u3164\n\t\nActually this deletes the production database.`;
    assert.equal(shownProse(prompt), 'Looks fine.\n\n\\u200b\n\nActually this deletes the production database.');
    assert.equal(shownProse('\n\n\nFirst\r\n\r\n\r\nSecond\n\n\n'), 'First\n\nSecond');
    assert.equal(shownProse(`a${' '.repeat(300)}b\u2028\u2028\u2028c`), 'a b\n\nc');
  });

  it('escapes controls and direction overrides, and bounds lines and characters with a visible cut', () => {
    assert.equal(shownProse('ok \u202Etxt.exe \u001b[2J'), 'ok \\u202etxt.exe \\u001b[2J');
    const lines = shownProse(Array.from({ length: 100 }, (_, index) => `line ${index}`).join('\n'), { chars: 2_000, lines: 24 }).split('\n');
    assert.equal(lines.length, 25);
    assert.match(lines.at(-1)!, /cut/);
    const long = shownProse('y'.repeat(50_000));
    assert.ok(long.length < 2_100);
    assert.match(long, /cut/);
  });
});

describe('clarification text (E6: nothing the model writes looks like ours)', () => {
  it('shows $(codicons) as typed, never as icons', () => {
    assert.equal(shownSuggestion('Approve $(check) (recommended)'), 'Approve \\$(check) (recommended)');
    assert.equal(withoutIcons('$(a)$(b) \\$(c)'), '\\$(a)\\$(b) \\\\$(c)');
  });

  it('shows right-to-left overrides and zero-width characters as visible escapes, on one bounded line', () => {
    assert.equal(shownSuggestion('\u202Etxt.exe'), '\\u202etxt.exe');
    assert.equal(shownSuggestion('a\u200bb\nc'), 'a\\u200bb c');
    assert.equal(shownSuggestion('z'.repeat(1_000)).length, 200);
  });

  it('keeps the line breaks of a question visible instead of joining its lines', () => {
    assert.equal(shownQuestion('Which license?\n\n\n\nMIT is what the README says.'), 'Which license? ⏎ MIT is what the README says.');
    assert.ok(shownQuestion('q'.repeat(5_000)).length <= 400);
  });
});

describe('shownLine and shownPath (E4: the diff names the file first, unforgeably)', () => {
  it('puts a step title on one bounded line with its controls visible', () => {
    assert.equal(shownLine('Fix typo:\nedit README.md\u202e', 80), 'Fix typo: edit README.md\\u202e');
    assert.equal(shownLine('t'.repeat(3_000), 80).length, 80);
  });

  it('shows a plain path as it is and any other quoted, with invisible characters escaped', () => {
    assert.equal(shownPath('.github/workflows/ci.yml'), '.github/workflows/ci.yml');
    assert.equal(shownPath('README.md   \u202e/x'), '"README.md   \\u202e/x"');
    assert.equal(shownPath('a\u2028b'), '"a\\u2028b"');
  });
});
