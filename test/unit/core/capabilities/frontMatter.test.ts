import assert from 'node:assert/strict';
import { parseFrontMatter } from '../../../../src/core/capabilities/frontMatter';

describe('parseFrontMatter', () => {
  it('splits the YAML fields from the body, with a BOM and Windows line ends', () => {
    assert.deepEqual(parseFrontMatter('---\nname: a\ntags: [x, y]\n---\nBody\n'), { fields: { name: 'a', tags: ['x', 'y'] }, body: 'Body\n' });
    assert.deepEqual(parseFrontMatter('\uFEFF---\r\nname: a\r\n---\r\nBody'), { fields: { name: 'a' }, body: 'Body' });
    assert.deepEqual(parseFrontMatter('---\nname: a\n...\nBody'), { fields: { name: 'a' }, body: 'Body' });
  });

  it('gives a file without front matter as its body, and an empty front matter as no fields', () => {
    assert.deepEqual(parseFrontMatter('# Title\n---\nname: x\n---\n'), { fields: undefined, body: '# Title\n---\nname: x\n---\n' });
    assert.deepEqual(parseFrontMatter('---\n---\nBody'), { fields: {}, body: 'Body' });
  });

  it('says what is wrong with front matter it cannot use, and never throws', () => {
    const problem = (text: string): string | undefined => parseFrontMatter(text).problem;
    assert.equal(problem('---\nname: a\n'), 'its front matter has no closing "---" line');
    assert.match(problem('---\nname: [unclosed\n---\n') ?? '', /^its front matter is not valid YAML \(/);
    assert.match(problem('---\nname: a\nname: b\n---\n') ?? '', /not valid YAML \(Map keys must be unique/);
    assert.equal(problem('---\n- a\n- b\n---\n'), 'its front matter is not a list of "key: value" fields');
    assert.equal(problem('---\njust text\n---\n'), 'its front matter is not a list of "key: value" fields');
    assert.match(problem('---\nname: !!js/function "x"\n---\n') ?? '', /uses YAML this reader does not accept/);
    assert.equal(problem(`---\nname: ${'a'.repeat(17_000)}\n---\n`), 'its front matter is longer than 16384 characters');
  });

  it('refuses a YAML bomb of nested aliases without expanding it', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let level = 1; level < 12; level++) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    const parsed = parseFrontMatter(`---\n${levels.join('\n')}\nname: bomb\n---\nBody`);
    assert.equal(parsed.problem, 'its front matter uses YAML aliases (*name); write the values out instead');
    assert.equal(parsed.fields, undefined);
    assert.equal(parsed.body, 'Body');
  });
});
