import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LlmChatRequest, LlmContentPart, LlmToolCall } from '../../../../src/core/llm/llmTypes';
import type { CodeNavigation, Problems } from '../../../../src/core/editorPorts';
import type { Clock, UrlFetcher } from '../../../../src/core/servicePorts';
import { planRequest, type PlanRequestOptions } from '../../../../src/core/planner/planRequest';
import { planningQuestionTool, planningReadTools, type PlanningQuestion } from '../../../../src/core/planner/investigateRequest';
import { defaultInvestigationBudget, type InvestigationBudget } from '../../../../src/core/planner/investigationBudget';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createCodeNavigationTools } from '../../../../src/core/tools/codeNavigationTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { createFetchUrlTool } from '../../../../src/core/tools/fetchUrlTool';
import { createGetDiagnosticsTool } from '../../../../src/core/tools/getDiagnosticsTool';
import type { Tool } from '../../../../src/core/tools/tool';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { scriptedLlm, type ScriptedReply } from '../../../fakes/scriptedLlm';

const noProblems: Problems = { list: () => Promise.resolve({ problems: [], total: 0 }) };
const navigation: CodeNavigation = {
  symbols: () => Promise.resolve([]),
  references: () => Promise.resolve({ locations: [], total: 0 }),
  definitions: () => Promise.resolve([]),
};
const noNetwork: UrlFetcher = { fetch: () => Promise.reject(new Error('no network in unit tests')) };
const everyTool: Tool[] = [
  ...builtinTools(),
  ...createCodeNavigationTools(navigation),
  createGetDiagnosticsTool(noProblems),
  createFetchUrlTool(noNetwork),
] as Tool[];
const tools = createToolRegistry(everyTool);
const signal = new AbortController().signal;
const planJson = (basedOn?: string[]): string =>
  JSON.stringify({
    objective: 'x',
    steps: [{ id: 'S1', title: 'Fix the parser', kind: 'agent', input: 'Fix parse() in src/parse.ts', dependsOn: [], ...(basedOn ? { basedOn } : {}) }],
  });
const files = { 'src/parse.ts': 'export function parse() { return 1; }\n', 'README.md': '# Demo\n', '.git/config': '[remote]\nurl = https://token@example.com\n' };

function call(name: string, args: Record<string, unknown>, id = `c-${name}-${JSON.stringify(args).length}`): LlmToolCall {
  return { id, name, arguments: JSON.stringify(args) };
}

function options(replies: ScriptedReply[], budget: Partial<InvestigationBudget> = {}, extra: Partial<PlanRequestOptions> = {}) {
  const llm = scriptedLlm(replies);
  const base: PlanRequestOptions = {
    llm,
    tools,
    signal,
    clock: new ManualClock(0),
    workspace: createMemoryWorkspace(files),
    investigate: { budget: { ...defaultInvestigationBudget, ...budget } },
    ...extra,
  };
  return { llm, base };
}

function text(content: string | LlmContentPart[]): string {
  return typeof content === 'string' ? content : content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The last request's messages as one text. */
function planRequestText(requests: readonly LlmChatRequest[]): string {
  return requests.at(-1)!.messages.map((message) => text(message.content)).join('\n');
}

describe('investigateRequest: a read-only look at the workspace before the plan', () => {
  it('offers only the read tools and the question tool: no write, command, network or other program', async () => {
    const { llm, base } = options([planJson()]);
    await planRequest('Fix the parser', { ...base, investigate: { budget: defaultInvestigationBudget, ask: () => Promise.resolve('a') } });
    const offered = (llm.requests[0]!.tools ?? []).map((tool) => tool.name);
    assert.deepEqual(offered, [...planningReadTools, planningQuestionTool]);
    for (const name of offered.filter((name) => name !== planningQuestionTool)) assert.equal(tools.get(name)?.effects, 'read', name);
    for (const forbidden of ['write_file', 'edit_file', 'delete_file', 'create_directory', 'run_command', 'fetch_url']) assert.ok(!offered.includes(forbidden), forbidden);
  });

  it('holds the tool calls and their results in the conversation before the plan, records what was read on the plan and lets steps cite it', async () => {
    const { llm, base } = options([
      { toolCalls: [call('read_file', { path: 'src/parse.ts' }), call('search_text', { query: 'parse(' })] },
      planJson(['src/parse.ts', '../outside.ts']),
    ]);
    const progress: string[] = [];
    const planned = await planRequest('Fix the parser', { ...base, investigate: { budget: defaultInvestigationBudget, progress: (line) => progress.push(line) } });
    assert.equal(llm.requests.length, 2, 'the reply without a tool call was the plan: no third request');
    const second = llm.requests[1]!.messages;
    const toolMessages = second.filter((message) => message.role === 'tool');
    assert.equal(toolMessages.length, 2);
    assert.ok(toolMessages[0]!.content.includes('export function parse()'), toolMessages[0]!.content);
    assert.ok(toolMessages[0]!.content.includes('untrusted_data'));
    assert.deepEqual(planned.plan.basis, { files: ['src/parse.ts'], searches: ['parse('], answers: [] });
    assert.deepEqual(planned.plan.steps[0]!.basedOn, ['src/parse.ts'], 'a path out of the workspace is dropped');
    assert.deepEqual(progress, ['reading src/parse.ts', 'searching for "parse("']);
    assert.equal(planned.investigation?.end, 'answered');
  });

  it('asks for the plan with the transcript when the last reply is not a plan', async () => {
    const { llm, base } = options([{ toolCalls: [call('read_file', { path: 'README.md' })] }, 'I have read enough.', planJson()]);
    const planned = await planRequest('Fix the parser', base);
    assert.equal(llm.requests.length, 3);
    const last = planRequestText(llm.requests);
    assert.ok(last.includes('→ read_file {"path":"README.md"}') && last.includes('# Demo'), last);
    assert.equal(llm.requests.at(-1)!.tools, undefined, 'no tool is offered when the plan is written');
    assert.equal(planned.plan.steps[0]?.title, 'Fix the parser');
  });

  it('a plan written at the end of the investigation that does not validate gets the one repair round, not a new plan request', async () => {
    const invalid = JSON.stringify({ objective: 'x', steps: [{ id: 'S1', title: 'Use it', kind: 'tool', tool: 'no_such_tool', dependsOn: [] }] });
    const { llm, base } = options([{ toolCalls: [call('read_file', { path: 'README.md' })] }, invalid, planJson()]);
    const planned = await planRequest('Fix the parser', base);
    assert.equal(llm.requests.length, 3, 'two investigation requests, then the repair round');
    const repair = llm.requests[2]!.messages;
    assert.ok(repair.some((message) => message.role === 'assistant' && message.content === invalid), 'the repair round shows the model its plan');
    assert.ok(text(repair.at(-1)!.content).includes('could not be used'));
    assert.equal(planned.plan.steps[0]?.title, 'Fix the parser');
  });

  it('stops at the tool call budget and still writes the plan, even when the model asks for 1000 calls at once', async () => {
    const thousand = Array.from({ length: 1000 }, (_, index) => call('read_file', { path: 'README.md' }, `c${index}`));
    const { llm, base } = options([{ toolCalls: thousand }, planJson()], { maxToolCalls: 3 });
    const planned = await planRequest('Fix the parser', base);
    assert.equal(planned.investigation?.toolCalls, 3);
    assert.equal(planned.investigation?.end, 'tool_calls');
    assert.equal(llm.requests.length, 2, 'one investigation request, then the plan');
    const notRun = llm.requests[1]!.messages.filter((message) => message.role === 'user').map((message) => text(message.content)).join('');
    assert.ok(notRun.includes('"status":"not_run"'), 'the calls past the budget are answered not run');
    assert.equal(planned.plan.steps.length, 1);
  });

  it('stops at the token budget and at the time budget, and the plan is still written', async () => {
    const forever = (): ScriptedReply => ({ toolCalls: [call('list_files', {})] });
    const tokens = options([forever(), planJson()], { maxTokens: 25 });
    const byTokens = await planRequest('Fix the parser', tokens.base);
    assert.equal(byTokens.investigation?.end, 'tokens');
    // Each scripted request costs 20 tokens; a second would carry the first's 10-token prompt and the listing past 25.
    assert.equal(byTokens.investigation?.requests, 1, 'no request is sent that would go past the budget');
    let now = 0;
    const clock: Clock = {
      now: () => now,
      sleep: (_ms, abort) => new Promise((_resolve, reject) => abort?.addEventListener('abort', () => reject(new Error('aborted')))),
    };
    const slow = scriptedLlm([
      () => {
        now += 60_000;
        return { toolCalls: [call('list_files', {})] };
      },
      planJson(),
    ]);
    const byTime = await planRequest('Fix the parser', { ...tokens.base, llm: slow, clock, investigate: { budget: { ...defaultInvestigationBudget, maxSeconds: 30 } } });
    assert.equal(byTime.investigation?.end, 'time');
    assert.equal(byTime.plan.steps.length, 1);
  });

  it('the time the user takes to answer a question does not count against the time budget; the model\'s time after it does', async () => {
    let now = 0;
    const clock: Clock = {
      now: () => now,
      sleep: (_ms, abort) => new Promise((_resolve, reject) => abort?.addEventListener('abort', () => reject(new Error('aborted')))),
    };
    const answerLate = (): Promise<string> => {
      now += 10 * 60_000;
      return Promise.resolve('MIT');
    };
    const ask = (): ScriptedReply => ({ toolCalls: [call('ask_user', { question: 'Which license?' })] });
    const budget = { ...defaultInvestigationBudget, maxSeconds: 30 };
    const late = options([ask(), { toolCalls: [call('read_file', { path: 'README.md' })] }, planJson()]);
    const planned = await planRequest('Add a license', { ...late.base, clock, investigate: { budget, ask: answerLate } });
    assert.equal(planned.investigation?.end, 'answered', 'ten minutes waiting for the answer left the 30 s budget untouched');
    assert.equal(planned.investigation?.toolCalls, 2, 'the read after the answer still ran');
    const slowModel = options([
      ask(),
      () => {
        now += 31_000;
        return { toolCalls: [call('read_file', { path: 'README.md' })] };
      },
      planJson(),
    ]);
    const slow = await planRequest('Add a license', { ...slowModel.base, clock, investigate: { budget, ask: answerLate } });
    assert.equal(slow.investigation?.end, 'time', 'the model\'s own 31 s after the answer is over the budget');
  });

  it('"plan now" stops investigating and plans with what was read', async () => {
    const stop = new AbortController();
    const { llm, base } = options([{ toolCalls: [call('read_file', { path: 'src/parse.ts' })] }, { toolCalls: [call('read_file', { path: 'README.md' })] }, planJson()]);
    let calls = 0;
    const planned = await planRequest('Fix the parser', {
      ...base,
      investigate: { budget: defaultInvestigationBudget, stop: stop.signal, progress: () => (++calls === 2 ? stop.abort() : undefined) },
    });
    assert.equal(planned.investigation?.end, 'stopped');
    assert.deepEqual(planned.plan.basis?.files, ['src/parse.ts']);
    assert.equal(llm.requests.length, 3, 'two investigation requests, then the plan');
    assert.ok(planRequestText(llm.requests).includes('export function parse()'));
  });

  it('says once that the investigation ended, before the plan is asked for, so a host\'s Cancel then cancels (a newcomer needed two)', async () => {
    const { llm, base } = options([{ toolCalls: [call('read_file', { path: 'src/parse.ts' })] }, { toolCalls: [], text: 'I have what I need.' }, planJson()]);
    const ends: { end: string; requestsSent: number }[] = [];
    await planRequest('Fix the parser', { ...base, investigate: { budget: defaultInvestigationBudget, ended: (end) => ends.push({ end, requestsSent: llm.requests.length }) } });
    assert.deepEqual(ends, [{ end: 'answered', requestsSent: 2 }]);
    assert.equal(llm.requests.length, 3, 'the plan was asked for after it');
    // Cancelled while investigating: planning is over, nothing is being written, and nothing says so.
    const cancel = new AbortController();
    const cancelled = options([{ toolCalls: [call('read_file', { path: 'src/parse.ts' })] }, planJson()]);
    const told: string[] = [];
    await assert.rejects(
      planRequest('Fix the parser', {
        ...cancelled.base,
        signal: cancel.signal,
        investigate: { budget: defaultInvestigationBudget, progress: () => cancel.abort(new Error('cancelled')), ended: (end) => told.push(end) },
      }),
      /cancelled/,
    );
    assert.deepEqual(told, []);
  });

  it('says once that the model writes the plan straight away, as the plan\'s first characters stream; a reply that starts in words is no plan', async () => {
    const streamed = (text: string, reply: ScriptedReply) => (request: LlmChatRequest) => {
      for (const piece of [' \n', text.slice(0, 2), text.slice(2)]) request.onDelta?.({ kind: 'text', text: piece });
      return typeof reply === 'function' ? reply(request) : reply;
    };
    const told: string[] = [];
    const { base } = options([
      streamed('Let me read the parser first.', { text: 'Let me read the parser first.', toolCalls: [call('read_file', { path: 'src/parse.ts' })] }),
      streamed(planJson(), planJson()),
      planJson(),
    ]);
    await planRequest('Fix the parser', {
      ...base,
      investigate: { budget: defaultInvestigationBudget, progress: (line) => told.push(`progress: ${line}`), writing: () => told.push('writing'), ended: (end) => told.push(`ended: ${end}`) },
    });
    assert.deepEqual(told.filter((line) => !line.startsWith('progress: ')), ['writing', 'ended: answered'], told.join(' | '));
    const read = told.findIndex((line) => line.startsWith('progress: ') && line.includes('src/parse.ts'));
    assert.ok(read >= 0 && told.indexOf('writing') > read, `not while the words before the tool call came: ${told.join(' | ')}`);
  });

  it('cancelling planning rejects, whatever the investigation was doing', async () => {
    const cancel = new AbortController();
    const { base } = options([{ toolCalls: [call('read_file', { path: 'src/parse.ts' })] }, planJson()]);
    await assert.rejects(
      planRequest('Fix the parser', { ...base, signal: cancel.signal, investigate: { budget: defaultInvestigationBudget, progress: () => cancel.abort(new Error('cancelled')) } }),
      /cancelled/,
    );
  });

  it('a question reaches the user with its suggestions and the answer reaches the plan', async () => {
    const asked: PlanningQuestion[] = [];
    const { llm, base } = options([
      { toolCalls: [call('ask_user', { question: 'Which license?', suggestions: ['MIT', 'Apache-2.0', 'MIT'] })] },
      { toolCalls: [] , text: 'ok' },
      planJson(),
    ]);
    const planned = await planRequest('Add a license', {
      ...base,
      investigate: {
        budget: defaultInvestigationBudget,
        ask: (question) => {
          asked.push(question);
          return Promise.resolve('Apache-2.0');
        },
      },
    });
    assert.deepEqual(asked, [{ question: 'Which license?', suggestions: ['MIT', 'Apache-2.0'] }]);
    assert.ok(llm.requests[1]!.messages.some((message) => message.role === 'tool' && message.content.includes('Apache-2.0')));
    assert.ok(planRequestText(llm.requests).includes('Apache-2.0'), 'the answer is in the plan request');
    assert.deepEqual(planned.plan.basis?.answers, [{ question: 'Which license?', answer: 'Apache-2.0' }]);
  });

  it('without anyone to answer, the model is told to choose and say so; without `ask` no question is offered', async () => {
    const { llm, base } = options([{ toolCalls: [call('ask_user', { question: 'Which license?' })] }, planJson()]);
    const planned = await planRequest('Add a license', { ...base, investigate: { budget: defaultInvestigationBudget, ask: () => Promise.resolve(undefined) } });
    assert.ok(llm.requests[1]!.messages.some((message) => message.role === 'tool' && message.content.includes('The user gave no answer')));
    assert.deepEqual(planned.plan.basis?.answers, [{ question: 'Which license?', answer: '' }]);
    const silent = options([planJson()]);
    await planRequest('Add a license', silent.base);
    assert.ok(!(silent.llm.requests[0]!.tools ?? []).some((tool) => tool.name === planningQuestionTool));
  });

  it('without a model or without investigate, planning is unchanged', async () => {
    const heuristic = await planRequest('Read README.md', { llm: undefined, tools, signal, clock: new ManualClock(0), workspace: createMemoryWorkspace(files), investigate: { budget: defaultInvestigationBudget } });
    assert.equal(heuristic.plan.basis, undefined);
    assert.equal(heuristic.investigation, undefined);
    const { llm, base } = options([planJson()]);
    const { investigate: _, ...without } = base;
    await planRequest('Fix the parser', without);
    assert.equal(llm.requests[0]!.tools, undefined);
    assert.ok(llm.requests[0]!.responseSchema !== undefined || llm.requests.length === 1);
  });
});

describe('investigateRequest: a hostile model', () => {
  it('reads nothing outside the workspace, nothing in .git, and no tool it was not offered', async () => {
    const { llm, base } = options([
      {
        toolCalls: [
          call('read_file', { path: '../outside' }),
          call('read_file', { path: '.git/config' }),
          call('list_files', { path: '.GIT' }),
          call('write_file', { path: 'pwned.txt', content: 'x' }),
          call('run_command', { argv: ['rm', '-rf', '/'] }),
          call('fetch_url', { url: 'http://example.com' }),
        ],
      },
      planJson(),
    ]);
    const workspace = createMemoryWorkspace(files);
    const planned = await planRequest('Fix the parser', { ...base, workspace });
    const results = llm.requests[1]!.messages.filter((message) => message.role === 'tool').map((message) => JSON.parse(message.content) as { status: string; error?: string });
    assert.equal(results.length, 6);
    for (const result of results) assert.equal(result.status, 'error', JSON.stringify(result));
    assert.ok(!JSON.stringify(results).includes('token@example.com'), 'the git config never reaches the model');
    assert.match(results[3]!.error!, /not available/);
    assert.equal(await workspace.stat('pwned.txt', signal), undefined);
    assert.equal(planned.plan.basis, undefined, 'nothing was read');
  });

  it('does not follow a symbolic link out of the workspace', async function () {
    const root = mkdtempSync(join(tmpdir(), 'investigate-'));
    try {
      mkdirSync(join(root, 'ws'));
      writeFileSync(join(root, 'secret.txt'), 'TOP SECRET');
      try {
        symlinkSync(join(root, 'secret.txt'), join(root, 'ws', 'link.txt'));
      } catch {
        this.skip();
      }
      const { llm, base } = options([{ toolCalls: [call('read_file', { path: 'link.txt' })] }, planJson()]);
      await planRequest('Fix the parser', { ...base, workspace: createNodeWorkspace(join(root, 'ws')) });
      const result = llm.requests[1]!.messages.find((message) => message.role === 'tool')!.content;
      assert.ok(!result.includes('TOP SECRET'), result);
      assert.match(result, /"status":"error"/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('gets a bounded sample of a huge file, and the plan request stays bounded', async () => {
    const huge = `${'const x = 1;\n'.repeat(400_000)}`;
    const { llm, base } = options([{ toolCalls: [call('read_file', { path: 'big.ts' })] }, 'done reading', planJson()]);
    await planRequest('Fix the parser', { ...base, workspace: createMemoryWorkspace({ 'big.ts': huge }) });
    const result = llm.requests[1]!.messages.find((message) => message.role === 'tool')!.content;
    assert.ok(result.length < 40_000, `${result.length} characters`);
    assert.ok(planRequestText(llm.requests).length < 200_000);
  });

  it('a question of 10 KB with escape sequences reaches the user bounded, on one line, without acting characters', async () => {
    const asked: PlanningQuestion[] = [];
    const hostile = `\u001b[2J\u001b]0;owned\u0007Pick one\n${'A'.repeat(10_000)}`;
    const { base } = options([{ toolCalls: [call('ask_user', { question: hostile, suggestions: [`\u001b[31mred\u001b[0m`, 'B'.repeat(5000)] })] }, planJson()]);
    await planRequest('Add a license', {
      ...base,
      investigate: { budget: defaultInvestigationBudget, ask: (question) => (asked.push(question), Promise.resolve('x')) },
    });
    const question = asked[0]!;
    for (const shown of [question.question, ...question.suggestions]) {
      assert.ok(shown.length <= 500, `${shown.length}`);
      assert.ok(!/[\u0000-\u001f\u007f-\u009f]/.test(shown), JSON.stringify(shown.slice(0, 40)));
    }
  });
});
