import assert from 'node:assert/strict';
import type { CodeLocation, CodeNavigation, CodePosition, CodeSymbol } from '../../../../src/core/editorPorts';
import { createCodeNavigationTools } from '../../../../src/core/tools/codeNavigationTools';
import type { Tool } from '../../../../src/core/tools/tool';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

const symbols: CodeSymbol[] = [
  { name: 'formatDateTime', kind: 'function', path: 'src/time.ts', line: 8, column: 17, text: 'export function formatDateTime(d: Date) {' },
  { name: 'formatDate', kind: 'function', container: 'utils', path: 'src/date.ts', line: 3, column: 17, text: 'export function formatDate(d: Date) {' },
];

function fakeNavigation(): CodeNavigation & { asked: CodePosition[] } {
  const asked: CodePosition[] = [];
  const here: CodeLocation[] = [
    { path: 'src/use.ts', line: 2, column: 9, text: 'return formatDate(\u001b[31mnow)' },
    { outside: 'package typescript, outside the workspace' },
  ];
  return {
    asked,
    symbols: (query, limit) => Promise.resolve(symbols.filter((symbol) => symbol.name.toLowerCase().includes(query.toLowerCase())).slice(0, limit)),
    references: (at, limit) => {
      asked.push(at);
      return Promise.resolve({ locations: here.slice(0, limit), total: here.length });
    },
    definitions: (at) => {
      asked.push(at);
      return Promise.resolve(here);
    },
  };
}

function toolNamed(tools: Tool[], name: string): Tool {
  const tool = tools.find((candidate) => candidate.name === name);
  assert.ok(tool, name);
  return tool;
}

describe('code navigation tools', () => {
  it('are three read tools', () => {
    const tools = createCodeNavigationTools(fakeNavigation());
    assert.deepEqual(
      tools.map((tool) => [tool.name, tool.effects]),
      [
        ['find_symbols', 'read'],
        ['find_references', 'read'],
        ['go_to_definition', 'read'],
      ],
    );
  });

  it('find_symbols returns the matching symbols, bounded by maxResults', async () => {
    const tool = toolNamed(createCodeNavigationTools(fakeNavigation()), 'find_symbols');
    assert.deepEqual(await tool.run(makeToolContext(), { query: 'formatDate', maxResults: 1 }, neverAborted), { symbols: [symbols[0]] });
  });

  it('go_to_definition at a symbol name uses the symbol of exactly that name, and names a place outside the workspace by its package only', async () => {
    const navigation = fakeNavigation();
    const result = await toolNamed(createCodeNavigationTools(navigation), 'go_to_definition').run(makeToolContext(), { symbol: 'formatDate' }, neverAborted);
    assert.deepEqual(navigation.asked, [{ path: 'src/date.ts', line: 3, column: 17 }]);
    assert.deepEqual(result, {
      locations: [
        { path: 'src/use.ts', line: 2, column: 9, text: 'return formatDate(\\u001b[31mnow)' },
        { outside: 'package typescript, outside the workspace' },
      ],
    });
  });

  it('find_references at a file position confines the path and counts every reference', async () => {
    const navigation = fakeNavigation();
    const tool = toolNamed(createCodeNavigationTools(navigation), 'find_references');
    const result = (await tool.run(makeToolContext(), { path: './src/date.ts', line: 3, column: 20, maxResults: 1 }, neverAborted)) as {
      locations: unknown[];
      total: number;
    };
    assert.deepEqual(navigation.asked, [{ path: 'src/date.ts', line: 3, column: 20 }]);
    assert.equal(result.locations.length, 1);
    assert.equal(result.total, 2);
    await assert.rejects(tool.run(makeToolContext(), { path: '../outside.ts', line: 1, column: 1 }, neverAborted));
  });

  it('wants either a symbol or a whole position, and says so when a symbol is unknown', async () => {
    const tool = toolNamed(createCodeNavigationTools(fakeNavigation()), 'go_to_definition');
    assert.equal(tool.inputSchema.safeParse({ path: 'a.ts', line: 1 }).success, false);
    assert.equal(tool.inputSchema.safeParse({ symbol: 'x', path: 'a.ts', line: 1, column: 1 }).success, false);
    assert.equal(tool.inputSchema.safeParse({}).success, false);
    await assert.rejects(
      tool.run(makeToolContext(), { symbol: 'nothingLikeThis' }, neverAborted),
      /No symbol named "nothingLikeThis" in the workspace; use find_symbols/,
    );
  });

  it('takes exactly a symbol or a whole position, nothing in between', () => {
    const schema = toolNamed(createCodeNavigationTools(fakeNavigation()), 'find_references').inputSchema;
    const accepted = (input: object): boolean => schema.safeParse(input).success;
    assert.equal(accepted({ symbol: 'x' }), true);
    assert.equal(accepted({ path: 'a.ts', line: 1, column: 1 }), true);
    assert.equal(accepted({ path: 'a.ts', column: 1 }), false);
    assert.equal(accepted({ line: 1, column: 1 }), false);
    assert.equal(accepted({ path: 'a.ts', line: 1 }), false);
    assert.equal(accepted({ symbol: 'x', line: 1, column: 1, path: 'a.ts' }), false);
  });

  it('at a name, prefers the same name, then the same name in other case, then the first match', async () => {
    const at = async (symbol: string): Promise<CodePosition | undefined> => {
      const navigation = fakeNavigation();
      await toolNamed(createCodeNavigationTools(navigation), 'go_to_definition').run(makeToolContext(), { symbol }, neverAborted);
      return navigation.asked[0];
    };
    assert.deepEqual(await at('FORMATDATE'), { path: 'src/date.ts', line: 3, column: 17 });
    assert.deepEqual(await at('format'), { path: 'src/time.ts', line: 8, column: 17 });
    assert.deepEqual(await at('formatDateTime'), { path: 'src/time.ts', line: 8, column: 17 });
  });

  it("keeps a symbol's container when it has one, and none when it has none", async () => {
    const tool = toolNamed(createCodeNavigationTools(fakeNavigation()), 'find_symbols');
    const { symbols: found } = (await tool.run(makeToolContext(), { query: 'formatDate' }, neverAborted)) as { symbols: CodeSymbol[] };
    assert.deepEqual(found, symbols);
    assert.equal('container' in (found[0] ?? {}), false);
    assert.equal(found[1]?.container, 'utils');
  });
  // The second attacker's find (2026-12-01): find_references looked into .env, find_symbols gave a key's line.
  it('attack: do not look into a file kept from the model, nor give its places or a line holding a private key', async () => {
    const keyLine = 'const KEY = "-----BEGIN PRIVATE KEY-----\\nMIIE"';
    const navigation: CodeNavigation = {
      symbols: () =>
        Promise.resolve([
          { name: 'KEY', kind: 'constant', path: 'src/keys.ts', line: 1, column: 7, text: keyLine },
          { name: 'API_KEY', kind: 'variable', path: '.env', line: 1, column: 1, text: 'API_KEY=sk-live-x' },
        ]),
      references: () => Promise.resolve({ locations: [{ path: '.env', line: 1, column: 1, text: 'API_KEY=sk-live-x' }, { path: 'a.ts', line: 1, column: 1, text: 'KEY' }], total: 2 }),
      definitions: () => Promise.resolve([{ path: '.git/config', line: 1, column: 1, text: 'url = https://t@x' }]),
    };
    const tools = createCodeNavigationTools(navigation);
    const kept: string[] = [];
    const ctx = makeToolContext({ withheld: (path) => kept.push(path) });
    const found = JSON.stringify([
      await toolNamed(tools, 'find_symbols').run(ctx, { query: 'KEY' }, neverAborted),
      await toolNamed(tools, 'find_references').run(ctx, { symbol: 'KEY' }, neverAborted),
      await toolNamed(tools, 'go_to_definition').run(ctx, { symbol: 'KEY' }, neverAborted),
    ]);
    assert.ok(!/sk-live|MIIE|https:\/\/t@/.test(found), found);
    assert.match(found, /a line holding a private key, kept from the model/);
    await assert.rejects(toolNamed(tools, 'find_references').run(ctx, { path: '.env', line: 1, column: 1 }, neverAborted), /holds credentials/);
    assert.deepEqual([...new Set(kept)].sort(), ['.env', '.git/config']);
  });
});

