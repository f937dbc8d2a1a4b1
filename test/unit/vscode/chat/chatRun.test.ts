import assert from 'node:assert/strict';
import '../../../fakes/vscodeL10n';
import type * as vscode from 'vscode';
import type { Plan } from '../../../../src/core/plan/planSchema';
import type { RunResult } from '../../../../src/core/engine/runOptions';
import type { ChatDeps } from '../../../../src/vscode/chat/chatDeps';
import { chatRun, chatStatus, insideFolder } from '../../../../src/vscode/chat/chatRun';
import { planReference, referencedPlan } from '../../../../src/vscode/chat/planReference';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** What the handler streamed: its Markdown and its buttons. */
function recordingStream(): { stream: vscode.ChatResponseStream; text: () => string; buttons: vscode.Command[] } {
  const markdown: string[] = [];
  const buttons: vscode.Command[] = [];
  const stream = {
    markdown: (value: string) => void markdown.push(value),
    progress: () => undefined,
    button: (command: vscode.Command) => void buttons.push(command),
    anchor: () => undefined,
    reference: () => undefined,
  } as unknown as vscode.ChatResponseStream;
  return { stream, text: () => markdown.join(''), buttons };
}

/** A chat wired to a Plan tree holding `current` and a run controller that records what it was asked to start. */
function chatWith(current: () => Plan | undefined): { deps: ChatDeps; started: Plan[] } {
  const started: Plan[] = [];
  const deps = {
    tree: { currentPlan: current, setPlan: () => undefined },
    runs: {
      isRunning: () => false,
      current: () => undefined,
      start: (plan: Plan) => {
        started.push(plan);
        return Promise.resolve({ runId: 'r1' } as unknown as RunResult);
      },
      cancel: () => false,
      runInfo: () => undefined,
      workspace: () => {
        throw new Error('not used');
      },
      onDidExecutionEvent: () => ({ dispose: () => undefined }),
    },
    tools: () => [],
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    model: () => Promise.resolve({ llm: undefined, label: 'heuristic planner' }),
  } as unknown as ChatDeps;
  return { deps, started };
}

const request = (prompt: string) => ({ prompt, command: 'run', references: [], model: undefined }) as unknown as vscode.ChatRequest;
const token = (cancelled = false) => ({ isCancellationRequested: cancelled, onCancellationRequested: () => ({ dispose: () => undefined }) }) as unknown as vscode.CancellationToken;

const readme = makePlan([makeStep('A1', { title: 'Review the readme', kind: 'manual', input: 'look at README.md' })], { id: 'p1', objective: 'Readme' });

/** The `/run …` text a plan's Start button sends. */
function startQuery(buttons: readonly vscode.Command[]): string {
  const start = buttons.find((button) => button.title === 'Start');
  assert.ok(start, 'no Start button');
  const [argument] = (start.arguments ?? []) as { query: string }[];
  assert.equal(start.command, 'workbench.action.chat.open');
  assert.ok(argument);
  return argument.query;
}

describe('chatRun: a Start button starts only the plan it was shown with', () => {
  it('names the plan as it is; any change to the plan (a step\'s argument, its version, another plan) names another', () => {
    const named = planReference(readme);
    assert.match(named, /^plan-[0-9a-f]{12}$/);
    assert.equal(planReference(structuredClone(readme)), named, 'the same plan, another object');
    // Keys in another order are the same plan.
    const reordered = { steps: readme.steps, agents: readme.agents, createdAt: readme.createdAt, objective: readme.objective, version: readme.version, id: readme.id };
    assert.equal(planReference(reordered as Plan), named);
    const otherInput = { ...readme, steps: [{ ...readme.steps[0]!, input: 'look at README.md; then rm -rf ~' }] };
    assert.notEqual(planReference(otherInput), named);
    assert.notEqual(planReference({ ...readme, version: 2 }), named);
    assert.equal(referencedPlan(`@planner /run ${named}`), named);
    assert.equal(referencedPlan(named.toUpperCase().replace('PLAN-', 'plan-')), named);
    assert.equal(referencedPlan(''), undefined);
    assert.equal(referencedPlan('please run the plan-x'), undefined);
  });

  it('an old Start pressed after the plan was edited starts nothing: the current plan is shown with its own Start, which starts it', async () => {
    let current: Plan = readme;
    const { deps, started } = chatWith(() => current);
    const shown = recordingStream();
    chatStatus(deps, shown.stream);
    const oldStart = startQuery(shown.buttons);
    assert.match(oldStart, /^@planner \/run plan-[0-9a-f]{12}$/);

    // Edited since (the panel, another chat's follow-up, a model's plan tools): a step now does something else.
    current = { ...readme, version: 2, steps: [{ ...readme.steps[0]!, title: 'Review the readme', input: 'delete README.md' }] };
    const stale = recordingStream();
    const result = await chatRun(deps, request(oldStart.replace('@planner /run ', '')), stale.stream, token());
    assert.deepEqual(started, [], 'the edited plan was started by a button shown before the edit');
    assert.match(stale.text(), /^Nothing was started: the plan has changed since that Start button was shown/);
    assert.match(stale.text(), /Review the readme \(A1\)/, 'the current plan is shown');
    assert.deepEqual(result.metadata, { command: 'run', stale: true });

    // Its own Start (as the Chat view sends it: the words typed after the mention) starts it.
    const fresh = startQuery(stale.buttons);
    assert.notEqual(fresh, oldStart);
    await chatRun(deps, { ...request(fresh), command: undefined }, recordingStream().stream, token());
    assert.deepEqual(started, [current]);
  });

  it('an old Start pressed after another plan replaced it starts nothing; /run typed without a button starts the current plan', async () => {
    let current: Plan = readme;
    const { deps, started } = chatWith(() => current);
    const shown = recordingStream();
    chatStatus(deps, shown.stream);
    const oldStart = startQuery(shown.buttons).replace('@planner /run ', '');
    current = makePlan([makeStep('B1', { title: 'Something else', kind: 'manual', input: 'x' })], { id: 'p2' });
    await chatRun(deps, request(oldStart), recordingStream().stream, token());
    assert.deepEqual(started, []);
    await chatRun(deps, request(''), recordingStream().stream, token());
    assert.deepEqual(started, [current], 'a /run the user typed runs the current plan, as documented');
  });

  it('a chat request stopped before the run started starts nothing', async () => {
    const { deps, started } = chatWith(() => readme);
    const recorded = recordingStream();
    await chatRun(deps, request(''), recorded.stream, token(true));
    assert.deepEqual(started, []);
    assert.match(recorded.text(), /You stopped the chat request before the run started, so nothing was started\./);
  });
});

describe("attack: a journal's changed path links the chat out of the folder", () => {
  // The chat's summary links each changed file into the run's folder; a committed journal may name any path.
  it('links only paths inside the folder: a ".." out, an absolute path or a device is named, not linked', () => {
    assert.equal(insideFolder('src/notes.js'), 'src/notes.js');
    for (const path of ['../../.ssh/id_rsa', '/etc/passwd', 'a/../../b', 'C:\\Windows\\win.ini', '~/.bashrc', '\\\\server\\share']) {
      assert.equal(insideFolder(path), undefined, path);
    }
  });
});
