import assert from 'node:assert/strict';
import { parseJsonLoose } from '../../../../src/core/text/parseJsonLoose';

describe('parseJsonLoose', () => {
  it('reads plain JSON, fenced JSON, JSON inside prose and repairable JSON', () => {
    assert.deepEqual(parseJsonLoose('{"a":1}'), { ok: true, value: { a: 1 } });
    assert.deepEqual(parseJsonLoose('```json\n{"a": 1}\n```'), { ok: true, value: { a: 1 } });
    assert.deepEqual(parseJsonLoose('Sure, here: {"a": [1, 2]} hope it helps'), { ok: true, value: { a: [1, 2] } });
    assert.deepEqual(parseJsonLoose("{'a': 1, /* note */ 'b': [1,2,],}"), { ok: true, value: { a: 1, b: [1, 2] } });
    assert.deepEqual(parseJsonLoose('{"a": {"b": "cut off'), { ok: true, value: { a: { b: 'cut off' } } });
  });

  it('reports empty and hopeless text', () => {
    assert.equal(parseJsonLoose('   ').ok, false);
    const result = parseJsonLoose('{{{');
    assert.ok(!result.ok && /not valid JSON, even after repair/.test(result.error));
  });

  it('prefers the fenced JSON over braces in the prose around it, also with a language tag and spaces, or a fence left open', () => {
    assert.deepEqual(parseJsonLoose('Use {x} like this:\n```json \n{"a": 1}\n```\nthen {y}'), { ok: true, value: { a: 1 } });
    assert.deepEqual(parseJsonLoose('Use {x} like this:\n```\n{"a": 1}\n```\nthen {y}'), { ok: true, value: { a: 1 } });
    assert.deepEqual(parseJsonLoose('Plan for {x}:\n```json\n{"a": 1}'), { ok: true, value: { a: 1 } });
  });

  it('takes valid JSON after a fence before repairing the fence body', () => {
    assert.deepEqual(parseJsonLoose('Intro ```\nfoo\n``` then {"a": 1}'), { ok: true, value: { a: 1 } });
  });

  it('cuts the JSON from the first opening to the last closing bracket of either kind', () => {
    assert.deepEqual(parseJsonLoose('{"a":1} trailing prose'), { ok: true, value: { a: 1 } });
    assert.deepEqual(parseJsonLoose('Plan: {"a": [1], "b": 2} done'), { ok: true, value: { a: [1], b: 2 } });
    assert.deepEqual(parseJsonLoose('Here: [{"a": 1}, {"b": 2}] done'), { ok: true, value: [{ a: 1 }, { b: 2 }] });
    assert.deepEqual(parseJsonLoose('x {"a": 1'), { ok: true, value: { a: 1 } });
  });

  it('reads text without any bracket as a whole', () => {
    assert.deepEqual(parseJsonLoose('answer: 7'), { ok: true, value: 'answer: 7' });
  });

  it('says the reply was empty for blank text, and quotes the repair error otherwise', () => {
    assert.deepEqual(parseJsonLoose('  \n '), { ok: false, error: 'The reply was empty; expected a JSON value.' });
    assert.deepEqual(parseJsonLoose('{{{'), { ok: false, error: 'The reply is not valid JSON, even after repair (Unexpected character "{" at position 1).' });
  });
});
