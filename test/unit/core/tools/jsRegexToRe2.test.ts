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
