import assert from 'node:assert/strict';
import { critiquePlan } from '../../../../src/core/plan/critiquePlan';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import { heuristicPlan } from '../../../../src/core/planner/heuristicPlan';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createCodeNavigationTools } from '../../../../src/core/tools/codeNavigationTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { createFetchUrlTool } from '../../../../src/core/tools/fetchUrlTool';
import { createGetDiagnosticsTool } from '../../../../src/core/tools/getDiagnosticsTool';
import { jsonSchemaInput } from '../../../../src/core/tools/jsonSchemaInput';
import type { Tool } from '../../../../src/core/tools/tool';
import { makePlan, makeStep } from '../../../support/randomPlans';

const echo = jsonSchemaInput({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
const contributed: Tool = {
  name: 'vscode__echo',
  description: 'Echo',
  inputSchema: echo.inputSchema,
  parameters: echo.parameters,
  effects: 'external',
  run: () => Promise.resolve({ text: '' }),
};
const never = (): Promise<never> => Promise.reject(new Error('not called'));
const tools = createToolRegistry([
  ...builtinTools(),
  createGetDiagnosticsTool({ list: never }),
  ...createCodeNavigationTools({ symbols: never, references: never, definitions: never }),
  createFetchUrlTool({ fetch: never }),
  contributed,
]);

describe("the planner and the critic with the editor's tools, fetch_url and contributed tools", () => {
  it('validates their arguments against their own schemas', () => {
    const plan = makePlan([
      makeStep('d', { kind: 'tool', tool: 'get_diagnostics', args: { paths: ['src/a.ts'] }, onFailure: 'skip' }),
      makeStep('s', { kind: 'tool', tool: 'find_symbols', args: { query: 'main' }, onFailure: 'skip' }),
      makeStep('f', { kind: 'tool', tool: 'fetch_url', args: { url: 'https://example.com/' }, onFailure: 'retry', maxAttempts: 2 }),
      makeStep('e', { kind: 'tool', tool: 'vscode__echo', args: { message: 'hi' }, onFailure: 'retry', maxAttempts: 2 }),
    ]);
    assert.deepEqual(
      validatePlan(plan, { tools }).filter((diagnostic) => diagnostic.severity === 'error'),
      [],
    );
    const bad = makePlan([
      makeStep('e', { kind: 'tool', tool: 'vscode__echo', args: { text: 'no message' } }),
      makeStep('g', { kind: 'tool', tool: 'go_to_definition', args: { line: 1 } }),
    ]);
    assert.deepEqual(
      validatePlan(bad, { tools })
        .filter((diagnostic) => diagnostic.severity === 'error')
        .map((diagnostic) => [diagnostic.code, diagnostic.stepId]),
      [
        ['invalid_args', 'e'],
        ['invalid_args', 'g'],
      ],
    );
  });

  it('wants a second try for a contributed tool or fetch_url that stops the run on its first failure, and not for the read-only editor tools', () => {
    const plan = makePlan([
      makeStep('f', { kind: 'tool', tool: 'fetch_url', args: { url: 'https://example.com/' }, onFailure: 'stop', critical: true }),
      makeStep('e', { kind: 'tool', tool: 'vscode__echo', args: { message: 'hi' }, onFailure: 'stop', critical: true }),
      makeStep('s', { kind: 'tool', tool: 'find_symbols', args: { query: 'main' }, onFailure: 'stop', critical: true }),
    ]);
    const flagged = critiquePlan(plan, { tools })
      .issues.filter((issue) => issue.check === 'optimism_bias')
      .map((issue) => issue.stepId);
    assert.deepEqual(flagged.sort(), ['e', 'f']);
  });

  it('says what outside the plan a critical step depends on: the MCP server and its tool, the network, another extension\'s tool', () => {
    const mcpTool: Tool = { ...contributed, name: 'mcp__files__read_text' };
    const registry = createToolRegistry([...builtinTools(), createFetchUrlTool({ fetch: never }), contributed, mcpTool]);
    const plan = makePlan([
      makeStep('m', { kind: 'tool', tool: 'mcp__files__read_text', args: { message: 'a' }, onFailure: 'stop', critical: true }),
      makeStep('f', { kind: 'tool', tool: 'fetch_url', args: { url: 'https://example.com/' }, onFailure: 'stop', critical: true }),
      makeStep('e', { kind: 'tool', tool: 'vscode__echo', args: { message: 'hi' }, onFailure: 'stop', critical: true }),
    ]);
    const messages = new Map(
      critiquePlan(plan, { tools: registry })
        .issues.filter((issue) => issue.check === 'optimism_bias')
        .map((issue) => [issue.stepId, issue.message]),
    );
    assert.equal(messages.get('m'), 'Step "m" calls the tool "read_text" of the MCP server "files" (another program: it can stop, time out or fail on its own) and is critical: if it fails, the whole run stops.');
    assert.equal(messages.get('f'), 'Step "f" reaches the network (fetch_url: it can be down or slow) and is critical: if it fails, the whole run stops.');
    assert.equal(messages.get('e'), 'Step "e" calls "vscode__echo" (another extension\'s tool: it can fail on its own) and is critical: if it fails, the whole run stops.');
  });

  it("the heuristic planner's plans stay valid with them in the registry", () => {
    const plan = heuristicPlan('Read README.md, then fix the typo in src/app.ts, then run npm test');
    assert.deepEqual(
      validatePlan(plan, { tools }).filter((diagnostic) => diagnostic.severity === 'error'),
      [],
    );
  });
});
