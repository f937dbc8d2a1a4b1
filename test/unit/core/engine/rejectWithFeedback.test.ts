import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunOptions } from '../../../../src/core/engine/runOptions';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { LlmChatRequest, LlmToolCall } from '../../../../src/core/llm/llmTypes';
import type { Plan } from '../../../../src/core/plan/planSchema';
import type { RunStore } from '../../../../src/core/runStorePorts';
import { feedbackMaxChars } from '../../../../src/core/tools/approvalFeedback';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction, type InteractionScript } from '../../../fakes/scriptedInteraction';
import { scriptedLlm, type ScriptedReply } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

const write = (path: string, content = 'text'): { toolCalls: LlmToolCall[] } => ({
  toolCalls: [{ id: `w-${path}-${content}`, name: 'write_file', arguments: JSON.stringify({ path, content }) }],
});
const toolTexts = (request: LlmChatRequest | undefined): string =>
  (request?.messages ?? []).filter((message) => message.role === 'tool').map((message) => String(message.content)).join('\n');
const userText = (request: LlmChatRequest | undefined): string =>
  (request?.messages ?? []).filter((message) => message.role === 'user').map((message) => String(message.content)).join('\n');

async function run(plan: Plan, replies: ScriptedReply[], script: InteractionScript, options: Partial<RunOptions> = {}) {
  const llm = scriptedLlm(replies);
  const workspace = createMemoryWorkspace({});
  const interaction = new ScriptedInteraction(script);
  const events: RunEvent[] = [];
  const handle = runPlan(plan, {
    idSource: () => 'run-1',
    llm,
    tools: builtinTools(),
    workspace,
    interaction,
    clock: new ManualClock(0, { autoAdvance: true }),
    agentLimits: { timeoutMs: Infinity },
    retryBaseDelayMs: 0,
    ...options,
  });
  handle.events.subscribe((event) => events.push(event));
  return { result: await handle.result, events, llm, workspace, interaction };
}

describe('Reject with feedback: the agent hears the reason and proposes again within the step', () => {
  it('the rejected call tells the agent what the user said, and its revised proposal is asked and applied', async () => {
    const plan = makePlan([makeStep('S1', { input: 'Write the greeting', critical: true })]);
    const { result, llm, workspace, events } = await run(plan, [write('a.txt', 'hi'), write('a.txt', 'Hello!'), 'Wrote a.txt.'], {
      approvals: [{ approved: false, reason: 'rejected in the approval dialog', feedback: 'Say "Hello!" instead' }, { approved: true }],
    });
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.equal(workspace.snapshot()['a.txt'], 'Hello!');
    assert.match(toolTexts(llm.requests[1]), /The user rejected .*Say \\+"Hello!\\+" instead.*Propose the change again, revised as they ask/);
    assert.ok(!toolTexts(llm.requests[1]).includes('Do not retry the same change'));
    assert.equal(toolTexts(llm.requests[1]).split('instead').length, 2, 'the feedback is told once');
    const answered = events.find((event) => event.type === 'request_answered');
    assert.equal(answered?.type === 'request_answered' ? answered.feedback : undefined, 'Say "Hello!" instead', 'journaled with the answer');
  });

  it("offers feedback where it is heard: an agent step's approvals say so, a tool step's do not (a command step heard nothing)", async () => {
    const plan = makePlan([
      makeStep('S1', { input: 'Write the greeting' }),
      makeStep('T1', { kind: 'tool', tool: 'write_file', args: { path: 'b.txt', content: 'b' }, input: undefined }),
    ]);
    const { interaction } = await run(plan, [write('a.txt', 'hi'), 'Wrote a.txt.'], { approvals: [{ approved: true }, { approved: true }] });
    const heard = Object.fromEntries(interaction.approvals().map((request) => [request.stepId, request.feedbackHeard === true]));
    assert.deepEqual(heard, { S1: true, T1: false });
  });

  it('an agent that ends after a rejection with feedback is given the feedback in its next attempt, up to its attempts', async () => {
    const plan = makePlan([makeStep('S1', { input: 'Write the greeting', maxAttempts: 2, critical: true })]);
    const replies = [write('a.txt', 'hi'), 'I could not.', write('a.txt', 'Hello!'), 'Wrote a.txt.'];
    const { result, llm, workspace } = await run(plan, replies, { approvals: [{ approved: false, feedback: 'Say Hello!' }, { approved: true }] });
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.equal(result.steps['S1']?.attempts, 2);
    assert.equal(workspace.snapshot()['a.txt'], 'Hello!');
    assert.match(userText(llm.requests[2]), /The user rejected the change and said: "Say Hello!"/);
  });

  it('attempts used up: the step fails saying what the user asked (a plain rejection keeps skipping it)', async () => {
    const plan = makePlan([makeStep('S1', { input: 'Write the greeting', maxAttempts: 1, critical: false, onFailure: 'stop' })]);
    const { result } = await run(plan, [write('a.txt', 'hi'), 'I could not.'], { approvals: [{ approved: false, feedback: 'Say Hello!' }] });
    assert.notEqual(result.steps['S1']?.status, 'completed');
    assert.match(result.steps['S1']?.error ?? '', /rejected.*said: "Say Hello!"/s);
    // What the model is told to do is the model's: the person read "Propose the change again … (a new call …)" (a trial).
    assert.doesNotMatch(result.steps['S1']?.error ?? '', /Propose|a new call/);
    const plain = await run(plan, [write('a.txt', 'hi'), 'I could not.'], { approvals: [{ approved: false }] });
    assert.equal(plain.result.steps['S1']?.status, 'skipped');
    assert.equal(plain.result.steps['S1']?.skipCause, 'rejected');
  });

  it('a hostile reason (escape sequences, a megabyte) reaches the model and the journal bounded and escaped', async () => {
    const plan = makePlan([makeStep('S1', { input: 'Write', maxAttempts: 1, critical: false })]);
    const hostile = `\u001b]0;pwned\u0007\u001b[2J${'y'.repeat(1_000_000)}`;
    const { llm, events } = await run(plan, [write('a.txt'), 'done'], { approvals: [{ approved: false, feedback: hostile }] });
    const told = toolTexts(llm.requests[1]);
    assert.ok(!told.includes('\u001b') && told.length < 3 * feedbackMaxChars, String(told.length));
    const answered = events.find((event) => event.type === 'request_answered');
    const journaled = answered?.type === 'request_answered' ? (answered.feedback ?? '') : '';
    assert.ok(journaled.length <= feedbackMaxChars && journaled.startsWith('\\u001b]0;pwned'), journaled.slice(0, 40));
  });
});

describe('Reject with feedback survives a resume', () => {
  const plan = makePlan([makeStep('S1', { input: 'Write the greeting', onFailure: 'stop', critical: false })]);
  let store: RunStore;
  const optionsOf = (replies: ScriptedReply[]) => ({ store, workspace: createMemoryWorkspace({}), tools: builtinTools(), llm: scriptedLlm(replies), clock: new ManualClock() });

  beforeEach(async () => {
    store = createMemoryRunStore();
    const first = await runPlan(plan, { ...optionsOf([write('a.txt', 'hi'), 'done']), idSource: () => 'r' }).result;
    assert.equal(first.status, 'waiting');
  });

  it('--reject STEP=REASON gives the reason to the resumed agent, even when it proposes something else', async () => {
    const options = optionsOf([write('b.txt', 'other'), 'done']);
    const interaction = new ScriptedInteraction({ approvals: ['defer'] });
    await resumeRun('r', { ...options, interaction, approvals: { S1: { approved: false, feedback: 'Say Hello! in a.txt' } } }).result;
    assert.match(userText(options.llm.requests[0]), /The user rejected the change and said: "Say Hello! in a\.txt"/);
  });

  it('feedback given during a run that was then interrupted is given to the step when the run resumes', async () => {
    const interrupted = createMemoryRunStore();
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false, feedback: 'Use b.txt' }, 'defer'] });
    const first = await runPlan(plan, {
      store: interrupted,
      workspace: createMemoryWorkspace({}),
      tools: builtinTools(),
      llm: scriptedLlm([write('a.txt', 'hi'), write('a.txt', 'again')]),
      clock: new ManualClock(),
      interaction,
      idSource: () => 'i',
    }).result;
    assert.equal(first.status, 'waiting');
    const options = { store: interrupted, workspace: createMemoryWorkspace({}), tools: builtinTools(), llm: scriptedLlm([write('b.txt', 'x'), 'done']), clock: new ManualClock() };
    // The agent continues its conversation: the write it was waiting on is asked again, then its model is.
    await resumeRun('i', { ...options, interaction: new ScriptedInteraction({ approvals: [{ approved: true }, 'defer'] }) }).result;
    assert.match(userText(options.llm.requests[0]), /said: "Use b\.txt"/);
  });
});
