import assert from 'node:assert/strict';
import Module from 'node:module';
import type * as vscode from 'vscode';
import { createSessionPlanner } from '../../../src/core/session/createSessionPlanner';
import { createPlanningTools } from '../../../src/core/tools/planningTools';
import type { registerLanguageModelTools as Register } from '../../../src/vscode/languageModelTools';
import { requireWithVscode } from '../../fakes/requireWithVscode';

type Invoke = (options: { input: unknown }, token: vscode.CancellationToken) => Promise<{ content: { value: string }[] }>;

/** The six tools as VS Code would call them, over a fresh planner, with what they logged. */
function registeredTools(): { invoke: (name: string, input: unknown) => Promise<string>; logged: string[] } {
  const handlers = new Map<string, { invoke: Invoke }>();
  const { registerLanguageModelTools } = requireWithVscode<{ registerLanguageModelTools: typeof Register }>(require.resolve('../../../src/vscode/languageModelTools'), {
    lm: {
      registerTool: (name: string, tool: { invoke: Invoke }) => {
        handlers.set(name, tool);
        return { dispose: () => undefined };
      },
    },
    LanguageModelToolResult: class {
      constructor(readonly content: unknown[]) {}
    },
    LanguageModelTextPart: class {
      constructor(readonly value: string) {}
    },
  });
  // The runtime bundle is not built in unit tests: the tools load from a stand-in holding the real planning tools.
  const runtimePath = require.resolve('../../../src/vscode/runtime');
  const runtime = new Module(runtimePath);
  runtime.exports = { createPlanningTools };
  runtime.loaded = true;
  require.cache[runtimePath] = runtime;
  const logged: string[] = [];
  const log = { info: (line: string) => void logged.push(line) } as unknown as vscode.LogOutputChannel;
  registerLanguageModelTools(createSessionPlanner(), log);
  const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) } as unknown as vscode.CancellationToken;
  return {
    invoke: async (name, input) => {
      const result = await handlers.get(name)!.invoke({ input }, token);
      return result.content.map((part) => part.value).join('');
    },
    logged,
  };
}

// A hostile extension calls vscode.lm.invokeTool (or a model writes the call): what comes back to the model and what
// the Output log shows must be bounded and show no control or direction character.
describe('planning_* Language Model Tools: a hostile call cannot flood the log or the model', () => {
  after(() => delete require.cache[require.resolve('../../../src/vscode/runtime')]);

  it('refuses thousands of unknown keys, or a key of 1 MB with a direction override, in a bounded message and log line', async () => {
    const tools = registeredTools();
    const keys = Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`key${index}\u001b[2J\u202e`, 1]));
    const message = await tools.invoke('planning_setup_plan', { objective: 'x', ...keys, ['k'.repeat(1_000_000)]: 1 });
    assert.match(message, /^Invalid input for planning_setup_plan/);
    assert.ok(message.length <= 2_000, `the model got ${message.length} characters`);
    assert.doesNotMatch(message, /[\u0000-\u001f\u202e]/);
    const line = tools.logged.at(-1) ?? '';
    assert.ok(line.length <= 400, `the log line has ${line.length} characters`);
    assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it('refuses 100,000 malformed steps with a few of their problems, not all', async () => {
    const tools = registeredTools();
    const message = await tools.invoke('planning_setup_plan', { objective: 'x', initialSteps: Array.from({ length: 100_000 }, () => ({ title: 1 })) });
    assert.match(message, /^Invalid input for planning_setup_plan: initialSteps\.0\.title/);
    assert.ok(message.length <= 2_000, `the model got ${message.length} characters`);
    assert.match(message, /more problems/);
  });

  it('logs a refusal naming a hostile step id cut and visible', async () => {
    const tools = registeredTools();
    await tools.invoke('planning_setup_plan', { objective: 'Ship', initialSteps: [{ title: 'Build' }] });
    const message = await tools.invoke('planning_mark_step', { stepId: `\u001b]0;pwned\u0007${'9'.repeat(1_000_000)}`, status: 'done' });
    assert.match(message, /^There is no step/);
    assert.ok(message.length < 400);
    assert.doesNotMatch(tools.logged.join('\n'), /[\u0000-\u0009\u000b-\u001f]/);
  });
});
