// The scripted model CI runs the eval against (it tests the harness, not a model): the fake OpenAI server answers
// each task's planning request with the task's canned good plan, whose first step it turns into an agent step that it
// then works as a model would (read the file, change it through the tools, answer), so the run makes model requests
// and the estimate has something to be measured against; and the attack tasks with a huge reply, invalid JSON, a
// reply that never comes and a plan that writes outside its workspace. Each attack says how the harness must have
// contained it. Every reply reports the tokens the request and the reply hold, counted as a provider counts them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from '../../src/core/llm/tokenCount';
import { FakeOpenAiServer, type FakeChatBody, type FakeReply, type FakeRequest, type FakeToolCall } from '../fakes/fakeOpenAiServer';
import type { CannedStep, EvalTask } from './evalTask';
import type { TaskOutcome } from './evalRun';
import { write } from './evalTask';

/** An attack task and what its outcome must show. */
export interface EvalAttack {
  task: EvalTask;
  /** Its own time limit, shorter than the tasks' (the hang waits for it). */
  timeLimitMs?: number;
  /** What is wrong with the outcome, or `undefined` when the harness contained the attack. */
  contained: (outcome: TaskOutcome, timeLimitMs: number) => string | undefined;
}

const failedWithReason = (outcome: TaskOutcome): string | undefined =>
  outcome.passed ? 'it passed' : outcome.reason === '' ? 'it failed without a reason' : outcome.reason.length > 301 ? 'its reason was not bounded' : undefined;

function attackTask(id: string, request: string): EvalTask {
  return { id, fixture: 'greeter', request, plan: { files: [], checkKinds: [] }, host: [{ kind: 'tests' }], canned: [] };
}

/** The attacks the scripted run adds after the tasks. */
export const evalAttacks: readonly EvalAttack[] = [
  { task: attackTask('attack-huge-reply', 'Attack: answer with a huge reply.'), contained: failedWithReason },
  { task: attackTask('attack-invalid-json', 'Attack: answer with invalid JSON.'), contained: failedWithReason },
  {
    task: attackTask('attack-hang', 'Attack: never answer.'),
    timeLimitMs: 10_000,
    contained: (outcome, limit) =>
      failedWithReason(outcome) ?? (outcome.timedOut ? undefined : `the command line was not stopped at the time limit of ${limit} ms`),
  },
  {
    task: { ...attackTask('attack-escape', 'Attack: write outside the workspace.'), canned: [write('S1', '../escaped.txt', 'escaped')] },
    contained: (outcome) =>
      failedWithReason(outcome) ?? (existsSync(join(outcome.folder, 'escaped.txt')) ? 'a file was written outside the workspace' : undefined),
  },
];

/** A request whose messages hold `text` (as JSON has it: quotes escaped). */
function asking(text: string): (request: FakeRequest) => boolean {
  const quoted = JSON.stringify(text).slice(1, -1);
  return (request) => JSON.stringify(request.body?.messages ?? []).includes(quoted);
}

/** Starts the scripted model for `tasks` and the attacks. */
export async function startScriptedModel(tasks: readonly EvalTask[]): Promise<FakeOpenAiServer> {
  const server = await new FakeOpenAiServer().start();
  server.on(asking('Attack: answer with a huge reply.'), { kind: 'message', content: `{"objective": "${'x'.repeat(6_000_000)}"` });
  server.on(asking('Attack: answer with invalid JSON.'), { kind: 'message', content: 'Sure! Here is the plan: {steps: [S1, S2' });
  server.on(asking('Attack: never answer.'), { kind: 'stall' });
  // A step's requests hold the task's objective too, so the agents' rules go before the planners'.
  for (const task of tasks) {
    const first = task.canned[0];
    if (first) server.on((request) => asking(task.request)(request) && asking(`## Your step: ${first.id}\n`)(request), (request) => agentTurn(first, request));
  }
  for (const task of tasks) {
    if (task.canned.length > 0) server.on(asking(task.request), (request) => counted(request, { content: JSON.stringify({ objective: task.request, steps: scriptedSteps(task) }) }));
  }
  for (const attack of evalAttacks) {
    const task = attack.task;
    if (task.canned.length > 0) server.on(asking(task.request), (request) => counted(request, { content: JSON.stringify({ objective: task.request, steps: task.canned }) }));
  }
  return server;
}

/** The task's plan as the scripted planner writes it: the canned plan, its first step an agent step asked to make the same change. */
export function scriptedSteps(task: EvalTask): unknown[] {
  return task.canned.map((step, index) => {
    if (index > 0) return step;
    const { tool, args, ...rest } = step;
    return { ...rest, kind: 'agent', input: `Change ${String(args['path'])} with ${tool}, arguments ${JSON.stringify(args)}. Answer in one sentence.` };
  });
}

/**
 * The scripted agent's next turn for `step`, as an agent works: it looks first (reads the file it edits, lists the
 * files before it writes or deletes one), makes the step's change with the step's tool and arguments, then answers in a
 * sentence. Three requests, whatever the task: the turns are the agent's, the eval measures the tokens around them.
 */
function agentTurn(step: CannedStep, request: FakeRequest): FakeReply {
  const results = (request.body?.messages ?? []).filter((message) => message.role === 'tool').length;
  const path = String(step.args['path']);
  const look: FakeToolCall = step.tool === 'edit_file' ? { name: 'read_file', arguments: { path } } : { name: 'list_files', arguments: {} };
  const turns: FakeToolCall[] = [look, { name: step.tool, arguments: step.args }];
  const call = turns[results];
  return counted(request, call ? { toolCalls: [{ ...call, id: `call_${results}` }] } : { content: `Done: ${path} is changed as asked.` });
}

/** A reply with the usage a provider would report for it: the request's and the reply's tokens. */
function counted(request: FakeRequest, reply: { content?: string; toolCalls?: FakeToolCall[] }): FakeReply {
  const completion =
    countTokens(reply.content ?? '') +
    (reply.toolCalls ?? []).reduce((sum, call) => sum + countTokens(call.name) + countTokens(JSON.stringify(call.arguments)), 0);
  return { kind: 'message', ...reply, usage: { prompt_tokens: promptTokens(request.body), completion_tokens: completion } };
}

/** Tokens of a request as providers count them: each message's text and tool calls with a few tokens of framing, and the tools offered. */
function promptTokens(body: FakeChatBody | undefined): number {
  let total = 3;
  for (const message of body?.messages ?? []) {
    total += 4 + countTokens(typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? ''));
    if (message.tool_calls !== undefined) total += countTokens(JSON.stringify(message.tool_calls));
  }
  if (body?.tools !== undefined && body.tools.length > 0) total += countTokens(JSON.stringify(body.tools));
  return total;
}
