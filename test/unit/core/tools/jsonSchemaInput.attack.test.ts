import assert from 'node:assert/strict';
import { jsonSchemaInput } from '../../../../src/core/tools/jsonSchemaInput';
import { checkOutput } from '../../../../src/core/tools/outputSchema';
import { schemaCheckCost } from '../../../../src/core/tools/schemaCheckCost';

/** A schema of a few kilobytes whose $defs each try two $refs to the next: checking one value walks 2^levels paths. */
function doubling(levels: number, leaf: Record<string, unknown>, atRoot: boolean): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (let level = 0; level < levels; level++) defs[`d${level}`] = { anyOf: [{ $ref: `#/$defs/d${level + 1}` }, { $ref: `#/$defs/d${level + 1}` }] };
  defs[`d${levels}`] = leaf;
  return atRoot ? { type: 'object', $defs: defs, $ref: '#/$defs/d0' } : { type: 'object', $defs: defs, properties: { q: { $ref: '#/$defs/d0' } } };
}

/** Doubling through the value instead: each level's two branches both descend into `a`, so a value nested 40 deep takes 2^40. */
function doublingDown(): Record<string, unknown> {
  return { $defs: { n: { type: 'object', properties: { a: { anyOf: [{ $ref: '#/$defs/n' }, { $ref: '#/$defs/n' }] } } } }, $ref: '#/$defs/n' };
}

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { end: true };
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

// An outside attack (a hostile MCP server): listing its tools froze the CLI and the extension host (20 levels: 22 s, 28:
// still hung after 45 s at 3.8 GB), and a plan step with one wrong argument froze `validate`. Validation cannot be
// interrupted, so the check is refused before it starts. Counted, not timed: no test here depends on the machine's speed.
describe('attack: a tool schema whose $refs and branches double at each level', () => {
  it('attack: listing the tool (its schema probed with {}) refuses the schema instead of walking 2^30 paths', () => {
    const input = jsonSchemaInput(doubling(30, { not: {} }, true));
    assert.match(input.unusable ?? '', /references and branches multiply to more than 1,000,000 checks/);
  });

  it('attack: one wrong argument under a doubling property is refused, not checked for ever', () => {
    const input = jsonSchemaInput(doubling(30, { type: 'string' }, false));
    const checked = input.inputSchema.safeParse({ q: 1 });
    assert.equal(checked.success, false);
    assert.match(checked.error?.issues[0]?.message ?? '', /multiply to more than/);
  });

  it('attack: a schema that doubles through the value: a value nested 40 deep is refused, a shallow one is checked', () => {
    const deep = checkOutput(doublingDown(), nested(40));
    assert.match(deep.ok ? '' : deep.diagnosis, /multiply to more than/);
    assert.deepEqual(checkOutput(doublingDown(), nested(5)), { ok: true });
    assert.equal(schemaCheckCost(doublingDown(), nested(5), 1_000_000) < 1_000, true);
  });

  it('holds: a recursive schema that does not multiply (a JSON value, a tree) checks deep values and large arrays', () => {
    const json = { $defs: { v: { anyOf: [{ type: ['string', 'number', 'boolean', 'null'] }, { type: 'array', items: { $ref: '#/$defs/v' } }, { type: 'object', additionalProperties: { $ref: '#/$defs/v' } }] } }, $ref: '#/$defs/v' };
    let deep: unknown = 'leaf';
    for (let level = 0; level < 100; level++) deep = level % 2 === 0 ? [deep] : { k: deep };
    assert.deepEqual(checkOutput(json, deep), { ok: true });
    assert.deepEqual(checkOutput({ type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } }, Array.from({ length: 20_000 }, (_, id) => ({ id }))), { ok: true });
    assert.equal(checkOutput({ type: 'array', items: { type: 'integer' } }, [1, 'two']).ok, false, 'and still finds what is wrong');
  });

  it('counts each pair of subschema and value once: the count of a doubling schema is cheap to make, and saturates at the limit', () => {
    assert.equal(schemaCheckCost(doubling(200, { not: {} }, true), {}, 1_000_000), 1_000_001);
    // The root (1 + d0); each level 1 + two branches of 1 + the next: d3 = 1 + its `not` = 2, d2 = 7, d1 = 17, d0 = 37.
    assert.equal(schemaCheckCost(doubling(3, { not: {} }, true), {}, 1_000_000), 38);
  });
});
