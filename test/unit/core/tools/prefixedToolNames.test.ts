import assert from 'node:assert/strict';
import { prefixedToolNames } from '../../../../src/core/tools/prefixedToolNames';

describe('prefixedToolNames', () => {
  it('prefixes names and replaces characters the registry refuses', () => {
    assert.deepEqual(
      [...prefixedToolNames('vscode__', ['copilot_search', 'mcp.db/query', 'été'])],
      [
        ['copilot_search', 'vscode__copilot_search'],
        ['mcp.db/query', 'vscode__mcp_db_query'],
        ['été', 'vscode___t_'],
      ],
    );
  });

  it('resolves collisions the same way whatever order the tools come in', () => {
    const expected = [
      ['a.b', 'vscode__a_b'],
      ['a:b', 'vscode__a_b_2'],
      ['a_b', 'vscode__a_b_3'],
    ];
    assert.deepEqual([...prefixedToolNames('vscode__', ['a_b', 'a:b', 'a.b'])], expected);
    assert.deepEqual([...prefixedToolNames('vscode__', ['a.b', 'a_b', 'a:b', 'a.b'])], expected);
  });

  it('keeps every name within 64 characters, suffixes included', () => {
    const long = 'x'.repeat(100);
    const names = prefixedToolNames('vscode__', [long, `${long}!`, `${long}?`]);
    assert.deepEqual([...names.values()], [`vscode__${'x'.repeat(56)}`, `vscode__${'x'.repeat(54)}_2`, `vscode__${'x'.repeat(54)}_3`]);
    for (const name of names.values()) assert.match(name, /^[a-zA-Z0-9_-]{1,64}$/);
  });
});
