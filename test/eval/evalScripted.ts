// The scripted model CI runs the eval against (it tests the harness, not a model): the fake OpenAI server answers
// each task's planning request with the task's canned good plan, and the attack tasks with a huge reply, invalid
// JSON, a reply that never comes and a plan that writes outside its workspace. Each attack says how the harness
// must have contained it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer, type FakeRequest, planReply } from '../fakes/fakeOpenAiServer';
import type { EvalTask } from './evalTask';
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
  for (const task of [...tasks, ...evalAttacks.map((attack) => attack.task)]) {
    if (task.canned.length > 0) server.on(asking(task.request), planReply(task.canned, task.request));
  }
  return server;
}
