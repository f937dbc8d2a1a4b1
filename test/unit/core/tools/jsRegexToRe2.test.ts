import assert from 'node:assert/strict';
import { RE2JS } from 're2js';
import { jsRegexToRe2, UnsupportedRegexError } from '../../../../src/core/tools/jsRegexToRe2';

/** Whether the translated pattern finds a match in `text`, and whether JavaScript agrees. */
function agree(source: string, text: string): boolean {
  const re2 = RE2JS.compile(jsRegexToRe2(source), RE2JS.MULTILINE).test(text);
  assert.equal(re2, new RegExp(source, 'm').test(text), `${source} on ${JSON.stringify(text)}: RE2 says ${re2}`);
  return re2;
}

describe('jsRegexToRe2', () => {
  it('gives escapes their JavaScript meaning', () => {
    assert.ok(agree('\\x41\\u0042\\cJ', 'AB\n'));
    assert.ok(agree('a\\0b', 'a\u0000b'));
    assert.ok(agree('\\a\\e\\/\\-', 'ae/-'), 'identity escapes are the character itself');
    assert.ok(agree('[\\b]', '\b'), '\\b in a class is a backspace');
    assert.ok(!agree('x\\by', 'xy'));
    assert.ok(agree('[\\s]x', '\u2028x'));
    assert.ok(!agree('\\S', ' \u00a0\ufeff'));
  });

  it('gives classes, dots and line ends their JavaScript meaning', () => {
    assert.ok(!agree('a[]b', 'ab'), '[] matches nothing');
    assert.ok(agree('a[^]b', 'a\nb'), '[^] matches anything');
    assert.ok(agree('[[]', '['), '[ is plain inside a class');
    assert.ok(!agree('a.b', 'a\rb'), '. does not match \\r');
    assert.ok(agree('a$', 'a\r\nb'), '$ before \\r');
    assert.ok(agree('(?<word>ab)+', 'abab'));
  });

  it('keeps u-flag meanings for \\u{…} and \\p{…}', () => {
    assert.ok(RE2JS.compile(jsRegexToRe2('\\u{1F600}')).test('😀'));
    assert.ok(RE2JS.compile(jsRegexToRe2('^\\p{L}+$')).test('héllo'));
  });

  it('names what RE2 cannot do', () => {
    for (const [source, feature] of [['(a)\\1', /backreferences/], ['(?<n>a)\\k<n>', /backreferences/], ['a(?=b)', /lookahead/], ['a(?!b)', /lookahead/], ['(?<=a)b', /lookbehind/], ['(?<!a)b', /lookbehind/], ['\\012', /octal/]] as const) {
      assert.throws(() => jsRegexToRe2(source), (error: unknown) => error instanceof UnsupportedRegexError && feature.test(error.feature), source);
    }
  });
});

describe('jsRegexToRe2: the same matches as JavaScript', () => {
  const cases: [string, string, boolean][] = [
    ['^\\x41\\u0042\\cJ$', 'AB\n', true],
    ['^\\x41$', 'x41', false],
    ['^a.c$', 'abc', true],
    ['a$', 'ab', false],
    ['^ab?c$', 'ac', true],
    ['^(ab)+$', 'abab', true],
    ['^(?:ab)+$', 'abab', true],
    ['^\\S+$', 'ab', true],
    ['^\\k$', 'k', true],
    ['^\\a<$', 'a<', true],
    ['\\Bb', 'ab', true],
    ['\\Bb', 'a b', false],
    ['x\\b', 'x y', true],
    ['^[^a]$', 'b', true],
    ['^[^a]$', 'a', false],
    ['^[ab]$', 'a', true],
    ['^[ab]$', 'S', false],
    ['^[\\S]+$', 'ab', true],
    ['^[\\S]$', ' ', false],
    ['^[\\d]$', '5', true],
    ['^[a\\-z]$', '-', true],
    ['^[a\\-z]$', 'b', false],
    ['^[a[]$', 'a', true],
    ['^[\\x41]$', 'A', true],
    ['^\\\u{1F600}$', '\u{1F600}', true],
  ];
  for (const [source, text, expected] of cases) {
    it(`${source} on ${JSON.stringify(text)}: ${expected}`, () => {
      assert.equal(agree(source, text), expected);
    });
  }

  it('keeps \\u{…} and \\p{…} whole, also after another escape', () => {
    assert.ok(RE2JS.compile(jsRegexToRe2('^\\u{1F600}$')).test('😀'));
    assert.ok(!RE2JS.compile(jsRegexToRe2('^\\u{1F600}$')).test('u{1F600}'));
    assert.ok(RE2JS.compile(jsRegexToRe2('^\\p{Lu}$')).test('É'));
    assert.ok(RE2JS.compile(jsRegexToRe2('^\\ab\\p{L}$')).test('abé'));
  });

  it('spells a named group the way every RE2 reads it', () => {
    assert.equal(jsRegexToRe2('(?<word>ab)'), '(?P<word>ab)');
  });

  it('refuses a digit escape in a character class', () => {
    assert.throws(() => jsRegexToRe2('[\\1]'), (error: unknown) => error instanceof UnsupportedRegexError && /octal escapes in a character class/.test(error.feature));
  });
});
