import assert from 'node:assert/strict';
import { expandTemplates, expandTemplatesDetailed, resolveArgs } from '../../../../src/core/plan/expandTemplates';

const results = { a: 'text result', b: { path: 'src/x.ts', nested: { count: 3 } }, 'v1.2': 'dotted', n: 0 };

describe('expandTemplates', () => {
  it('inserts string results raw and other values as compact JSON', () => {
    assert.equal(expandTemplates('A={{results.a}} B={{results.b}}', results), 'A=text result B={"path":"src/x.ts","nested":{"count":3}}');
  });

  it('follows key paths', () => {
    assert.equal(expandTemplates('{{results.b.path}} {{results.b.nested.count}}', results), 'src/x.ts 3');
  });

  it('accepts spaces inside the braces and falsy values', () => {
    assert.equal(expandTemplates('{{ results.n }}', results), '0');
  });

  it('resolves ids that contain dots by the longest matching prefix', () => {
    assert.equal(expandTemplates('{{results.v1.2}}', results), 'dotted');
  });

  it('leaves unresolved placeholders verbatim and reports them', () => {
    const expansion = expandTemplatesDetailed('{{results.ghost}} and {{results.b.missing}}', results);
    assert.equal(expansion.text, '{{results.ghost}} and {{results.b.missing}}');
    assert.deepEqual(expansion.unresolved, ['{{results.ghost}}', '{{results.b.missing}}']);
  });

  it('prints values that cannot be serialized instead of throwing', () => {
    assert.equal(expandTemplates('{{results.big}} {{results.odd}}', { big: 10n, odd: { toJSON: () => { throw new Error('no'); }, toString: null } }), '10 [unprintable object]');
  });

  it('does not treat prototype keys as results', () => {
    assert.equal(expandTemplates('{{results.constructor}} {{results.b.toString}}', results), '{{results.constructor}} {{results.b.toString}}');
  });
});

describe('resolveArgs', () => {
  it('replaces a whole-value "$<id>" with the result itself', () => {
    assert.deepEqual(resolveArgs({ file: '$b', count: '$n' }, results).args, { file: results.b, count: 0 });
  });

  it('expands templates deeply in objects and arrays', () => {
    const resolved = resolveArgs({ argv: ['cat', '{{results.b.path}}'], options: { label: 'from {{results.a}}' }, keep: 5 }, results);
    assert.deepEqual(resolved, { args: { argv: ['cat', 'src/x.ts'], options: { label: 'from text result' }, keep: 5 }, unresolved: [] });
  });

  it('keeps "$<id>" of an unknown step as text, and reports it with unresolved templates', () => {
    const resolved = resolveArgs({ a: '$ghost', b: '{{results.ghost}}' }, results);
    assert.deepEqual(resolved, { args: { a: '$ghost', b: '{{results.ghost}}' }, unresolved: ['$ghost', '{{results.ghost}}'] });
  });

  it('resolves "$<id>.<key>…" to the value at that path, array indexes included', () => {
    const resolved = resolveArgs({ p: '$b.path', c: '$b.nested.count', d: '$v1.2', i: '$list.1.name' }, { ...results, list: [{ name: 'x' }, { name: 'y' }] });
    assert.deepEqual(resolved, { args: { p: 'src/x.ts', c: 3, d: 'dotted', i: 'y' }, unresolved: [] });
  });

  it('does not follow inherited keys or keys of text, and reports such references', () => {
    const resolved = resolveArgs({ a: '$__proto__.x', b: '$b.constructor', c: '$a.length', d: '$b.nested.count.toFixed', e: '$b.missing' }, results);
    assert.deepEqual(resolved.args, { a: '$__proto__.x', b: '$b.constructor', c: '$a.length', d: '$b.nested.count.toFixed', e: '$b.missing' });
    assert.deepEqual(resolved.unresolved, ['$__proto__.x', '$b.constructor', '$a.length', '$b.nested.count.toFixed', '$b.missing']);
  });

  it('treats only a whole value as a reference: "$a" inside text is text', () => {
    assert.deepEqual(resolveArgs({ t: 'cost: $a', u: '$a ' }, results), { args: { t: 'cost: $a', u: '$a ' }, unresolved: [] });
  });

  it('does not mutate its input', () => {
    const args = { list: ['{{results.a}}'] };
    resolveArgs(args, results);
    assert.deepEqual(args, { list: ['{{results.a}}'] });
  });
});
