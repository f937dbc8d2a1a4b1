import assert from 'node:assert/strict';
import { cliTools } from '../../../src/cli/cliTools';

describe('cliTools', () => {
  it('offers fetch_url as a network tool, and not the tools that need the editor', () => {
    const tools = cliTools();
    assert.equal(tools.get('fetch_url')?.effects, 'network');
    for (const name of ['get_diagnostics', 'find_symbols', 'find_references', 'go_to_definition']) assert.equal(tools.get(name), undefined, name);
  });
});
