import assert from 'node:assert/strict';
import { parseJsonLoose } from '../../../../src/core/plan/parseJsonLoose';

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
});
