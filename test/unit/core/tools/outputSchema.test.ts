import assert from 'node:assert/strict';
import { checkOutput, maxOutputSchemaChars, maxOutputSchemaDepth, outputSchemaProblems } from '../../../../src/core/tools/outputSchema';

const products = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    kind: { enum: ['list', 'map'] },
  },
  required: ['items'],
  additionalProperties: false,
};

describe('outputSchema: a step result checked against its JSON Schema, in words', () => {
  it('passes a conforming value', () => {
    assert.deepEqual(checkOutput(products, { city: 'Oslo', items: [{ name: 'a' }], kind: 'list' }), { ok: true });
  });

  it('names the place in the result, what was expected and what was found', () => {
    assert.deepEqual(checkOutput(products, { items: 'three' }), { ok: false, diagnosis: 'The result does not match the output schema: result.items: expected array, got string.' });
    assert.deepEqual(checkOutput(products, {}), { ok: false, diagnosis: 'The result does not match the output schema: result.items: missing (required).' });
    assert.deepEqual(checkOutput(products, { items: [{}] }), { ok: false, diagnosis: 'The result does not match the output schema: result.items[0].name: missing (required).' });
    assert.deepEqual(checkOutput(products, { items: [], kind: 'tree' }), { ok: false, diagnosis: 'The result does not match the output schema: result.kind: expected one of "list", "map", got "tree".' });
    assert.deepEqual(checkOutput(products, { items: [], 'odd key': 1 }), { ok: false, diagnosis: 'The result does not match the output schema: result: unexpected field "odd key".' });
    assert.deepEqual(checkOutput({ type: 'array', items: { type: 'integer' } }, [1, 2.5]), { ok: false, diagnosis: 'The result does not match the output schema: result[1]: expected integer, got number.' });
    assert.deepEqual(checkOutput({ const: 3 }, 4), { ok: false, diagnosis: 'The result does not match the output schema: result: expected 3, got 4.' });
    assert.deepEqual(checkOutput({ type: 'string', minLength: 3 }, 'ab'), { ok: false, diagnosis: 'The result does not match the output schema: result: must NOT have fewer than 3 characters, got "ab".' });
  });

  it('lists at most five mismatches and counts the rest, leaving out the "a branch failed" noise of anyOf', () => {
    const wide = { type: 'object', properties: Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((key) => [key, { type: 'string' }])) };
    const checked = checkOutput(wide, { a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1 });
    assert.equal(checked.ok, false);
    assert.match(checked.ok ? '' : checked.diagnosis, /result\.e: expected string, got integer \(and 2 more\)\.$/);
    const either = checkOutput({ anyOf: [{ type: 'string' }, { type: 'number' }] }, true);
    assert.deepEqual(either, { ok: false, diagnosis: 'The result does not match the output schema: result: expected string, got boolean; result: expected number, got boolean.' });
  });

  it('names odd keys in brackets and cuts long values', () => {
    const checked = checkOutput({ type: 'object', properties: { 'a b': { type: 'integer' } } }, { 'a b': 'x'.repeat(500) });
    assert.deepEqual(checked, { ok: false, diagnosis: 'The result does not match the output schema: result["a b"]: expected integer, got string.' });
    const long = checkOutput({ type: 'string', maxLength: 1 }, 'y'.repeat(500));
    assert.ok(!long.ok && long.diagnosis.length < 300, 'the value shown is cut');
  });

  it('accepts a usable schema, recursive ones that descend into the value included', () => {
    assert.deepEqual(outputSchemaProblems(products), []);
    assert.deepEqual(outputSchemaProblems({ type: 'object', properties: { child: { $ref: '#' } } }), []);
    assert.deepEqual(outputSchemaProblems({ $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } }, $ref: '#/$defs/node' }), []);
    const tree = { $defs: { node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } } } }, $ref: '#/$defs/node' };
    assert.deepEqual(checkOutput(tree, { kids: [{ kids: [{ kids: 'no' }] }] }), { ok: false, diagnosis: 'The result does not match the output schema: result.kids[0].kids[0].kids: expected array, got string.' });
  });

  it('refuses what is not a JSON Schema', () => {
    assert.deepEqual(outputSchemaProblems({ type: 'wat' }), ['the schema at /type must be equal to one of the allowed values', 'the schema at /type must be array']);
    assert.deepEqual(outputSchemaProblems({ type: 'object', properties: 3 }), ['the schema at /properties must be object']);
    assert.deepEqual(outputSchemaProblems({ required: 'name' }), ['the schema at /required must be array']);
  });

  it('refuses a $ref loop that never descends into the value, instead of overflowing the stack', () => {
    const loop = 'the schema: its $ref leads back to itself without looking into the value, so checking would never end';
    assert.deepEqual(outputSchemaProblems({ $ref: '#' }), [loop]);
    const mutual = { $defs: { a: { $ref: '#/$defs/b' }, b: { anyOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' };
    assert.equal(outputSchemaProblems(mutual).length, 1);
    assert.match(outputSchemaProblems(mutual)[0] ?? '', /leads back to itself/);
    const checked = checkOutput({ allOf: [{ $ref: '#' }] }, 1);
    assert.equal(checked.ok, false);
    assert.match(checked.ok ? '' : checked.diagnosis, /^The step's output schema cannot be used: .*leads back to itself/);
  });

  it('refuses references outside the schema or to nothing (no fetching)', () => {
    assert.deepEqual(outputSchemaProblems({ $ref: 'https://example.com/schema.json' }), [
      'the schema: $ref "https://example.com/schema.json" points outside the schema; only references inside it ("#/…") are supported',
    ]);
    assert.deepEqual(outputSchemaProblems({ properties: { a: { $ref: '#/$defs/none' } } }), ['the schema at /properties/a: $ref "#/$defs/none" points to nothing in the schema']);
  });

  it('refuses a huge or deeply nested schema before compiling it', () => {
    const huge = { type: 'object', properties: Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`field${index}`, { type: 'string' }])) };
    assert.match(outputSchemaProblems(huge)[0] ?? '', new RegExp(`^it is \\d+ characters long; at most ${maxOutputSchemaChars} are accepted$`));
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 10_000; level++) deep = { type: 'array', items: deep };
    assert.deepEqual(outputSchemaProblems(deep), [`it is nested more than ${maxOutputSchemaDepth} levels deep`]);
    assert.equal(checkOutput(deep, []).ok, false);
  });

  it('runs patterns on RE2, so a catastrophic pattern takes linear time, and refuses patterns RE2 cannot run', () => {
    const checked = checkOutput({ type: 'string', pattern: '^(a+)+$' }, `${'a'.repeat(100_000)}b`);
    assert.equal(checked.ok, false);
    assert.match(checked.ok ? '' : checked.diagnosis, /must match pattern "\^\(a\+\)\+\$"/);
    assert.deepEqual(checkOutput({ type: 'string', pattern: '^x' }, 'xy'), { ok: true });
    assert.deepEqual(checkOutput({ patternProperties: { '^n': { type: 'number' } } }, { n1: 'one' }), {
      ok: false,
      diagnosis: 'The result does not match the output schema: result.n1: expected number, got string.',
    });
    assert.match(outputSchemaProblems({ pattern: '(a)\\1' })[0] ?? '', /^it cannot be compiled \(backreferences/);
  });

  it('treats a "__proto__" field of parsed JSON as a field, and pollutes no prototype', () => {
    const value = JSON.parse('{"items": [], "__proto__": {"polluted": true}}') as unknown;
    assert.deepEqual(checkOutput(products, value), { ok: false, diagnosis: 'The result does not match the output schema: result: unexpected field "__proto__".' });
    const protoField = JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "object", "required": ["polluted"]}}}') as Record<string, unknown>;
    assert.deepEqual(outputSchemaProblems(protoField), []);
    assert.deepEqual(checkOutput(protoField, value), { ok: true });
    // ajv never applies a schema to a "__proto__" field (its own guard): the field is left alone, not followed.
    assert.deepEqual(checkOutput(protoField, JSON.parse('{"__proto__": {}}')), { ok: true });
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  });

  it('gives the same verdict for the same schema object twice (compiled once)', () => {
    const schema = { type: 'integer' };
    assert.deepEqual(checkOutput(schema, 1), { ok: true });
    assert.deepEqual(checkOutput(schema, 'x'), { ok: false, diagnosis: 'The result does not match the output schema: result: expected integer, got string.' });
  });

  it('runs each pattern of a schema with its own expression', () => {
    const twoPatterns = { type: 'object', properties: { a: { type: 'string', pattern: '^a' }, b: { type: 'string', pattern: '^b' } } };
    assert.deepEqual(checkOutput(twoPatterns, { a: 'a1', b: 'b1' }), { ok: true });
    assert.deepEqual(checkOutput(twoPatterns, { a: 'a1', b: 'a1' }), { ok: false, diagnosis: 'The result does not match the output schema: result.b: must match pattern "^b", got "a1".' });
  });

  it('follows $anchor references and JSON-pointer escapes, and finds loops through them', () => {
    const anchored = { $defs: { item: { $anchor: 'item', type: 'string' } }, type: 'array', items: { $ref: '#item' } };
    assert.deepEqual(outputSchemaProblems(anchored), []);
    assert.deepEqual(checkOutput(anchored, [1]), { ok: false, diagnosis: 'The result does not match the output schema: result[0]: expected string, got integer.' });
    assert.deepEqual(outputSchemaProblems({ items: { $ref: '#nothing' } }), ['the schema at /items: $ref "#nothing" points to nothing in the schema']);
    assert.match(outputSchemaProblems({ $anchor: 'me', allOf: [{ $ref: '#me' }] })[0] ?? '', /leads back to itself/);
    const escaped = { $defs: { 'a/b': { type: 'string' }, 'c~d': { type: 'integer' }, 'e f': { type: 'boolean' } }, properties: { x: { $ref: '#/$defs/a~1b' }, y: { $ref: '#/$defs/c~0d' }, z: { $ref: '#/$defs/e%20f' } } };
    assert.deepEqual(outputSchemaProblems(escaped), []);
    assert.deepEqual(checkOutput(escaped, { x: 's', y: 1, z: true }), { ok: true });
    assert.deepEqual(outputSchemaProblems({ type: 'string', not: { $ref: '#/type/deeper' } }), ['the schema at /not: $ref "#/type/deeper" points to nothing in the schema']);
    assert.deepEqual(outputSchemaProblems({ prefixItems: [{ type: 'string' }, { $ref: '#/$defs/none' }] }), ['the schema at /prefixItems/1: $ref "#/$defs/none" points to nothing in the schema']);
    assert.match(outputSchemaProblems({ dependentSchemas: { a: { $ref: '#' } } })[0] ?? '', /^the schema: its \$ref leads back to itself/);
    assert.deepEqual(outputSchemaProblems({ dependentSchemas: { a: { required: ['b'] } }, properties: { c: { $ref: '#' } } }), []);
    assert.deepEqual(outputSchemaProblems({ $defs: { a: { type: 'string' } }, anyOf: [{ $ref: '#/$defs/a' }, { $ref: '#/$defs/a' }] }), [], 'a subschema reached twice is no loop');
  });

  it('joins every problem of an unusable schema into its diagnosis', () => {
    const checked = checkOutput({ $ref: 'https://a.example/s', properties: { x: { $ref: 'https://b.example/s' } } }, 1);
    assert.ok(!checked.ok);
    assert.match(checked.ok ? '' : checked.diagnosis, /^The step's output schema cannot be used: the schema: \$ref "https:\/\/a\.example\/s" points outside the schema; only references inside it \("#\/…"\) are supported; the schema at \/properties\/x: /);
  });

  it('refuses a schema JSON cannot hold', () => {
    assert.deepEqual(outputSchemaProblems({ const: 10n }), ['it is not JSON (Do not know how to serialize a BigInt)']);
    assert.deepEqual(outputSchemaProblems({ toJSON: () => undefined }), ['it is not JSON']);
  });

  it('accepts exactly the deepest nesting allowed', () => {
    const nested = (levels: number): Record<string, unknown> => {
      let schema: Record<string, unknown> = { type: 'string' };
      for (let level = 1; level < levels; level++) schema = { type: 'array', items: schema };
      return schema;
    };
    assert.deepEqual(outputSchemaProblems(nested(maxOutputSchemaDepth)), []);
    assert.deepEqual(outputSchemaProblems(nested(maxOutputSchemaDepth + 1)), [`it is nested more than ${maxOutputSchemaDepth} levels deep`]);
  });

  it('words what was found: null, arrays, objects, numbers at two-digit indexes, and nothing for a check on the whole', () => {
    assert.deepEqual(checkOutput({ type: 'string' }, null), { ok: false, diagnosis: 'The result does not match the output schema: result: expected string, got null.' });
    assert.deepEqual(checkOutput({ type: 'string' }, []), { ok: false, diagnosis: 'The result does not match the output schema: result: expected string, got array.' });
    assert.deepEqual(checkOutput({ enum: ['a'] }, { x: 1 }), { ok: false, diagnosis: 'The result does not match the output schema: result: expected one of "a", got object.' });
    const many = Array.from({ length: 12 }, () => 'ok') as unknown[];
    many[11] = 3;
    assert.deepEqual(checkOutput({ type: 'array', items: { type: 'string' } }, many), { ok: false, diagnosis: 'The result does not match the output schema: result[11]: expected string, got integer.' });
    assert.deepEqual(checkOutput({ type: 'object', minProperties: 2 }, { a: 1 }), { ok: false, diagnosis: 'The result does not match the output schema: result: must NOT have fewer than 2 properties.' });
    assert.deepEqual(checkOutput({ type: 'number', maximum: 3 }, 4), { ok: false, diagnosis: 'The result does not match the output schema: result: must be <= 3, got 4.' });
    assert.deepEqual(checkOutput({ type: 'object', properties: { '1x': { type: 'string' } } }, { '1x': 1 }), { ok: false, diagnosis: 'The result does not match the output schema: result["1x"]: expected string, got integer.' });
  });
});
