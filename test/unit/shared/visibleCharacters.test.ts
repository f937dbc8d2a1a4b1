import assert from 'node:assert/strict';
import { visibleControls, visibleInvisibles } from '../../../src/shared/visibleCharacters';

const escaped = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

describe('visibleControls', () => {
  it('shows C0 and C1 controls, DEL and the direction controls as escapes, and keeps tabs and line feeds', () => {
    assert.equal(visibleControls('a\u001b[2Jb\rc\u007f\u009b\u202ed\u2066e'), 'a\\u001b[2Jb\\u000dc\\u007f\\u009b\\u202ed\\u2066e');
    assert.equal(visibleControls('a\tb\nc'), 'a\tb\nc');
  });

  // An outside attack (2026-12-02): each of these reached a terminal raw, hiding or splitting words in a command or a path shown for approval.
  it('attack: shows the zero-width characters, the line and paragraph separators and the byte order mark as escapes', () => {
    const hidden = ['\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u2028', '\u2029', '\u2060', '\u2061', '\u2062', '\u2063', '\u2064', '\ufeff'];
    for (const char of hidden) assert.equal(visibleControls(`rm${char} -rf`), `rm${escaped(char)} -rf`, escaped(char));
    assert.equal(visibleControls('\ufeffnpm\u200btest'), '\\ufeffnpm\\u200btest');
  });

  // An outside attack (2026-12-03): a model's title spelt "IGNORE" in tag characters, printed raw by the CLI (invisible).
  it('attack: shows the tag characters and the other characters that show nothing (soft hyphen, Mongolian vowel separator…), each half of one beyond U+FFFF', () => {
    const smuggled = [...'IGNORE'].map((letter) => String.fromCodePoint(0xe0000 + letter.charCodeAt(0))).join('');
    assert.equal(visibleControls(`Read ok${smuggled}`), 'Read ok\\udb40\\udc49\\udb40\\udc47\\udb40\\udc4e\\udb40\\udc4f\\udb40\\udc52\\udb40\\udc45');
    assert.deepEqual(JSON.parse(`"${visibleControls(`a${smuggled}`)}"`), `a${smuggled}`);
    for (const char of ['\u00ad', '\u034f', '\u17b4', '\u180b', '\u180e', '\ufff9', '\ufffb', '\u{e0001}', '\u{e007f}', '\u{1d173}']) {
      assert.doesNotMatch(visibleControls(`a${char}b`), new RegExp(`[${char}]`, 'u'), escaped(char));
    }
    // The Hangul fillers show as blank space (shownProse makes them spaces).
    for (const kept of ['\u{e0080}', '\u{1d172}', '\u180a', '\u{1f600}', '\ufe0f', '\u3164', '\u115f']) assert.equal(visibleControls(`a${kept}`), `a${kept}`, escaped(kept));
  });

  it('keeps a zero-width joiner inside an emoji, and shows one anywhere else', () => {
    for (const emoji of ['👩‍💻', '👨‍👩‍👧', '❤️‍🔥', '🧑🏽‍🚀']) assert.equal(visibleControls(`ok ${emoji}`), `ok ${emoji}`, emoji);
    assert.equal(visibleControls('a\u200db'), 'a\\u200db');
    assert.equal(visibleControls('👩\u200dx'), '👩\\u200dx');
    assert.equal(visibleControls('x\u200d👩'), 'x\\u200d👩');
  });

  it('keeps a zero-width non-joiner inside a word of a script that writes with it (Persian, Hindi), and shows one between ASCII letters', () => {
    for (const word of ['می\u200cخواهم', 'क्\u200cष']) assert.equal(visibleControls(word), word, word);
    assert.equal(visibleControls('r\u200cm -rf'), 'r\\u200cm -rf');
    assert.equal(visibleControls('می\u200c'), 'می\\u200c');
  });

  it('keeps ordinary text and keeps JSON valid with the same value', () => {
    const text = 'diff ✔ é 漢字 😀 a‐b';
    assert.equal(visibleControls(text), text);
    const value = { text: 'x\u200by\u2028z\ufeff' };
    assert.deepEqual(JSON.parse(visibleControls(JSON.stringify(value))), value);
  });
});

describe('visibleInvisibles', () => {
  it('shows the characters that take no room on screen, and nothing else', () => {
    assert.equal(visibleInvisibles('a\u00adb\u180ec\u200bd\u200de\u2060f\u2064g\ufeffh'), 'a\\u00adb\\u180ec\\u200bd\\u200de\\u2060f\\u2064g\\ufeffh');
    assert.equal(visibleInvisibles('a\u001b\u202eb'), 'a\u001b\u202eb');
  });
});
