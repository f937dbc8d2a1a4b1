import assert from 'node:assert/strict';
import { dependencyList, describeRaw, firstString, isRecord } from '../../../../src/core/plan/rawValues';

describe('rawValues', () => {
  it('isRecord accepts plain objects only', () => {
    assert.equal(isRecord({ a: 1 }), true);
    assert.equal(isRecord([]), false);
    assert.equal(isRecord(null), false);
    assert.equal(isRecord('x'), false);
  });

  it('firstString skips blank strings, non-finite numbers and other values, and stringifies a finite number', () => {
    assert.equal(firstString(undefined, '  ', 'title'), 'title');
    assert.equal(firstString(Number.NaN, Number.POSITIVE_INFINITY, {}, ['x'], true, 'kept'), 'kept');
    assert.equal(firstString(undefined, 42, 'later'), '42');
    assert.equal(firstString(' padded '), ' padded ');
    assert.equal(firstString('', null), undefined);
  });

  it('dependencyList reads nothing from empty values, a scalar as one id, and keeps only scalar elements, as strings', () => {
    assert.deepEqual(dependencyList(undefined), []);
    assert.deepEqual(dependencyList(null), []);
    assert.deepEqual(dependencyList(''), []);
    assert.deepEqual(dependencyList('S1'), ['S1']);
    assert.deepEqual(dependencyList(3), ['3']);
    assert.deepEqual(dependencyList(['S1', 2, null, undefined, { id: 'S3' }, ['S4'], true]), ['S1', '2', 'true']);
  });

  it('describeRaw shows short values whole and cuts longer ones to 40 characters with an ellipsis', () => {
    assert.equal(describeRaw('x'.repeat(40)), 'x'.repeat(40));
    assert.equal(describeRaw('x'.repeat(41)), `${'x'.repeat(39)}…`);
    assert.equal(describeRaw({ a: 1 }), '{"a":1}');
    const exactly40 = ['a'.repeat(36)]; // ["aaa…"] is 40 characters of JSON
    assert.equal(describeRaw(exactly40), JSON.stringify(exactly40));
    assert.equal(describeRaw(['a'.repeat(37)]), `${JSON.stringify(['a'.repeat(37)]).slice(0, 39)}…`);
  });

  it('describeRaw names the type of what JSON cannot show, without calling its toString', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.equal(describeRaw(cyclic), 'object');
    assert.equal(describeRaw(undefined), 'undefined');
    assert.equal(describeRaw(Symbol('s')), 'symbol');
  });
});
