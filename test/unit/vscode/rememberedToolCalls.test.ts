import assert from 'node:assert/strict';
import { maxRememberedCalls, RememberedToolCalls } from '../../../src/vscode/rememberedToolCalls';
import { memoryMemento } from '../../fakes/memoryMemento';

describe('RememberedToolCalls', () => {
  it('remembers an answer once under its key, forgets by key prefix, and says how many went', async () => {
    const calls = new RememberedToolCalls(memoryMemento());
    assert.equal(calls.has('mcp-tool:aa:query'), false);
    await calls.remember('mcp-tool:aa:query', 'MCP server "db": query');
    await calls.remember('mcp-tool:aa:query', 'MCP server "db": query');
    await calls.remember('mcp-tool:aa:list', 'MCP server "db": list');
    await calls.remember('mcp-tool:bb:query', 'MCP server "other": query');
    assert.equal(calls.has('mcp-tool:aa:query'), true);
    assert.equal(calls.has('mcp-tool:aa:drop'), false);
    assert.deepEqual(
      calls.list().map((call) => call.key),
      ['mcp-tool:aa:query', 'mcp-tool:aa:list', 'mcp-tool:bb:query'],
    );
    assert.equal(await calls.forget('mcp-tool:aa:'), 2);
    assert.deepEqual(calls.list(), [{ key: 'mcp-tool:bb:query', label: 'MCP server "other": query' }]);
    assert.equal(await calls.forget(''), 1);
    assert.deepEqual(calls.list(), []);
  });

  it('keeps the newest answers up to its limit, and ignores a stored value it did not write', async () => {
    const state = memoryMemento();
    const calls = new RememberedToolCalls(state);
    for (let index = 0; index <= maxRememberedCalls; index++) await calls.remember(`k${index}`, `tool ${index}`);
    assert.equal(calls.list().length, maxRememberedCalls);
    assert.equal(calls.has('k0'), false);
    assert.equal(calls.has(`k${maxRememberedCalls}`), true);
    const odd = new RememberedToolCalls(memoryMemento({ 'taskPlanner.rememberedToolCalls': [{ key: 'a', label: 'A' }, 'b', { key: 3 }, null, { key: 'c' }] }));
    assert.deepEqual(odd.list(), [{ key: 'a', label: 'A' }]);
    assert.deepEqual(new RememberedToolCalls(memoryMemento({ 'taskPlanner.rememberedToolCalls': 'a' })).list(), []);
  });
});
