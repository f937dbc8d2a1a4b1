import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mcpToolNames, mcpToolRefOf } from '../../../../src/core/mcp/mcpToolNames';

const validName = /^[a-zA-Z0-9_-]{1,64}$/;
const anyName = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.constantFrom('a', 'a b', 'a_b', 'a-b', '', 'x'.repeat(200)),
);
const refs = fc.array(fc.record({ server: anyName, tool: anyName }), { maxLength: 30 });

describe('mcpToolNames', () => {
  it('keeps mcp__<server>__<tool> when it is valid and unique', () => {
    assert.deepEqual(
      mcpToolNames([
        { server: 'github', tool: 'create_issue' },
        { server: 'db', tool: 'query' },
      ]),
      ['mcp__github__create_issue', 'mcp__db__query'],
    );
  });

  it('sanitizes control characters, long names and names that collide after sanitizing, each to a distinct valid name', () => {
    const names = mcpToolNames([
      { server: 's', tool: 'bad\u001b[31mname\u0007' },
      { server: 's', tool: 'n'.repeat(200) },
      { server: 's', tool: 'same name' },
      { server: 's', tool: 'same_name' },
    ]);
    for (const name of names) assert.match(name, validName);
    assert.equal(new Set(names).size, 4);
    assert.match(names[0] as string, /^mcp__s__bad__31mname__[0-9a-f]{7}$/);
    assert.equal(names[3], 'mcp__s__same_name', 'the name that is valid as it is keeps it');
    assert.match(names[2] as string, /^mcp__s__same_name_[0-9a-f]{7}$/);
  });

  it('never takes a reserved (built-in) name', () => {
    const [name] = mcpToolNames([{ server: 'x', tool: 'y' }], new Set(['mcp__x__y']));
    assert.notEqual(name, 'mcp__x__y');
    assert.match(name as string, validName);
  });

  it('gives every tool a valid, unique name whatever the names, the same whatever their order', () => {
    fc.assert(
      fc.property(refs, fc.array(fc.nat(), { maxLength: 30 }), (list, shuffle) => {
        const names = mcpToolNames(list);
        assert.equal(names.length, list.length);
        for (const name of names) assert.match(name, validName);
        assert.equal(new Set(names).size, names.length);
        // A permutation of the refs gets the same name for each distinct ref.
        const order = list.map((_, index) => index).sort((a, b) => (shuffle[a] ?? 0) - (shuffle[b] ?? 0) || a - b);
        const permuted = mcpToolNames(order.map((index) => list[index] as { server: string; tool: string }));
        const byRef = (names_: string[], indices: number[]) => {
          const map = new Map<string, Set<string>>();
          indices.forEach((refIndex, position) => {
            const ref = list[refIndex] as { server: string; tool: string };
            const key = `${ref.server}\u0000${ref.tool}`;
            map.set(key, (map.get(key) ?? new Set()).add(names_[position] as string));
          });
          return map;
        };
        assert.deepEqual(
          byRef(permuted, order),
          byRef(
            names,
            list.map((_, index) => index),
          ),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('mcpToolRefOf', () => {
  it('reads back the server and tool of a plain name, and nothing of a name that is not an MCP tool\'s', () => {
    const [name] = mcpToolNames([{ server: 'everything', tool: 'get-sum' }]);
    assert.deepEqual(mcpToolRefOf(name ?? ''), { server: 'everything', tool: 'get-sum' });
    assert.deepEqual(mcpToolRefOf('mcp__a__b__c'), { server: 'a', tool: 'b__c' });
    for (const other of ['read_file', 'mcp__', 'mcp____echo', 'mcp_x__echo', 'mcp__echo']) assert.equal(mcpToolRefOf(other), undefined, other);
  });
});
