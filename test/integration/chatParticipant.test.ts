// The @planner chat participant (src/vscode/chat/) inside the real extension host: its handler is called as the Chat
// view calls it, with a recording ChatResponseStream and the scripted chat model of test/fixtures/fakeChatModel as the
// model picked in the chat (request.model).
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { planReference } from '../../src/vscode/chat/planReference';
import type { TaskPlannerApi } from './testBuild/testExtension';

interface ScriptedReply {
  text?: string | string[];
  toolCalls?: { callId: string; name: string; input: object }[];
  hang?: 'untilCancelled' | 'forever';
}

interface FakeChatModel {
  vendor: string;
  setEnabled(value: boolean): void;
  script(...replies: ScriptedReply[]): void;
  requests(): unknown[];
  pending(): number;
  reset(): void;
}

/** What the handler streamed, part by part. */
type Part =
  | { kind: 'markdown'; value: string }
  | { kind: 'progress'; value: string }
  | { kind: 'button'; command: vscode.Command }
  | { kind: 'anchor'; uri: string; title?: string }
  | { kind: 'reference'; uri: string };

function recordingStream(): { stream: vscode.ChatResponseStream; parts: Part[]; markdown(): string } {
  const parts: Part[] = [];
  const uriOf = (value: unknown): string =>
    value instanceof vscode.Uri ? value.toString() : value instanceof vscode.Location ? value.uri.toString() : String(value);
  const stream = {
    markdown: (value: string | vscode.MarkdownString) => parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value }),
    progress: (value: string) => parts.push({ kind: 'progress', value }),
    button: (command: vscode.Command) => parts.push({ kind: 'button', command }),
    anchor: (value: vscode.Uri | vscode.Location, title?: string) => parts.push({ kind: 'anchor', uri: uriOf(value), ...(title === undefined ? {} : { title }) }),
    reference: (value: vscode.Uri | vscode.Location) => parts.push({ kind: 'reference', uri: uriOf(value) }),
    filetree: () => undefined,
    push: () => undefined,
  } as unknown as vscode.ChatResponseStream;
  return { stream, parts, markdown: () => parts.flatMap((part) => (part.kind === 'markdown' ? [part.value] : [])).join('') };
}

function chatRequest(model: vscode.LanguageModelChat, command: string | undefined, prompt: string): vscode.ChatRequest {
  return { prompt, command, references: [], toolReferences: [], toolInvocationToken: undefined, model } as unknown as vscode.ChatRequest;
}

const context = { history: [] } as unknown as vscode.ChatContext;

function planReply(plan: object): ScriptedReply {
  const text = JSON.stringify(plan);
  const third = Math.floor(text.length / 3);
  // Three parts, so steps arrive while the reply is still being written.
  return { text: [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)] };
}

/** The plan of two reads the follow-up tests edit. */
const twoReads = planReply({
  objective: 'Two reads',
  steps: [
    { id: 'A1', title: 'Read the readme', kind: 'tool', tool: 'read_file', args: { path: 'README.md' }, dependsOn: [] },
    { id: 'B1', title: 'Read the package', kind: 'tool', tool: 'read_file', args: { path: 'package.json' }, dependsOn: [] },
  ],
});

describe('@planner in the chat (the handler in the extension host, the scripted chat model)', function () {
  this.timeout(60_000);
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
  let fake: FakeChatModel;
  let api: TaskPlannerApi;
  let model: vscode.LanguageModelChat;

  before(async () => {
    const fixture = vscode.extensions.getExtension<FakeChatModel>('task-planner-tests.fake-chat-model');
    assert.ok(fixture, 'the fixture extension test/fixtures/fakeChatModel is not loaded');
    fake = await fixture.activate();
    fake.reset();
    fake.setEnabled(true);
    const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
    assert.ok(extension);
    api = await extension.activate();
    const [picked] = await vscode.lm.selectChatModels({ vendor: fake.vendor });
    assert.ok(picked, 'the fixture model is not offered');
    model = picked;
  });

  afterEach(() => fake.reset());
  after(() => fake.setEnabled(false));

  const send = async (command: string | undefined, prompt: string, token = new vscode.CancellationTokenSource().token) => {
    const recorded = recordingStream();
    const result = await api.chat(chatRequest(model, command, prompt), context, recorded.stream, token);
    return { ...recorded, result };
  };

  it('/plan plans with the picked model, streams the steps, ends with Review in panel and Start; Start runs it and the summary links the changed file', async () => {
    fake.script(
      planReply({
        objective: 'Write the notes',
        steps: [
          { id: 'W1', title: 'Write notes.txt', kind: 'tool', tool: 'write_file', args: { path: 'chat-notes.txt', content: 'from the chat\n' }, dependsOn: [] },
          { id: 'R1', title: 'Read the notes back', kind: 'tool', tool: 'read_file', args: { path: 'chat-notes.txt' }, dependsOn: ['W1'] },
        ],
      }),
    );
    const planned = await send('plan', 'Write chat-notes.txt, then read it back');
    assert.equal(fake.requests().length, 1, 'the picked chat model planned');
    const streamedSteps = planned.parts.filter((part) => part.kind === 'markdown' && /^\d+\. /.test(part.value));
    assert.deepEqual(
      streamedSteps.map((part) => (part.kind === 'markdown' ? part.value : '')),
      ['1. Write notes\\.txt (W1) — _write\\_file_\n', '2. Read the notes back (R1) — _read\\_file_\n'],
      'each step is streamed as its own part as soon as the model has written it',
    );
    // The chat folds what came before a progress line into its "working" section: none follows the streamed steps (the editor's
    // "step N written…" lines are its notification's), so they stay shown and the plan does not list them again.
    const firstStep = planned.parts.findIndex((part) => part.kind === 'markdown' && part.value.startsWith('1. '));
    assert.deepEqual(
      planned.parts.slice(firstStep).filter((part) => part.kind === 'progress'),
      [],
      'no progress line after the streamed steps',
    );
    assert.match(planned.markdown(), /_read\\_file_\n\n\*\*Write chat\\-notes\\\.txt, then read it back\*\* \(2 steps\)\n\nCritic: /);
    const buttons = planned.parts.flatMap((part) => (part.kind === 'button' ? [part.command] : []));
    assert.deepEqual(
      buttons.map((button) => [button.title, button.command, button.arguments]),
      [
        ['Review in panel', 'taskPlanner.showPlan', undefined],
        ['Start', 'workbench.action.chat.open', [{ query: `@planner /run ${planReference(api.currentPlan()!)}` }]],
      ],
    );
    assert.deepEqual(api.planTreeLabels(), ['1. Write notes.txt', '2. Read the notes back'], 'the plan is the Plan tree\'s current plan');

    // Start asks "@planner /run": the run reports here; the write's approval stays an editor prompt.
    const running = send('run', '');
    assert.deepEqual(await api.nextPrompt(), { stepId: 'W1', kind: 'approval' });
    await vscode.commands.executeCommand('taskPlanner.approve', 'W1');
    const ran = await running;
    assert.equal(readFileSync(join(root, 'chat-notes.txt'), 'utf8'), 'from the chat\n');
    const text = ran.markdown();
    assert.match(text, /- ‖ Write notes\\\.txt waits for your approval: Approve or Reject it in the editor's diff or dialog/);
    assert.match(text, /- ✓ Write notes\\\.txt\n/);
    assert.match(text, /\*\*Write chat\\-notes\\\.txt, then read it back\*\*: completed in .*2 of 2 steps completed; 1 file changed/);
    const fileUri = vscode.Uri.file(join(root, 'chat-notes.txt')).toString();
    assert.deepEqual(
      ran.parts.filter((part) => part.kind === 'anchor' || part.kind === 'reference'),
      [
        { kind: 'anchor', uri: fileUri, title: 'chat-notes.txt' },
        { kind: 'reference', uri: fileUri },
      ],
    );
    assert.ok(ran.parts.some((part) => part.kind === 'progress' && part.value === 'Step 1 of 2: Write notes\\.txt'), 'no progress line for the first step');

    const status = await send('status', '');
    assert.match(status.markdown(), /completed in .*2 of 2 steps completed/);
  });

  it('a question asked while planning ends the response with it; the conversation\'s next message answers it and the plan is written with the answer', async () => {
    fake.script(
      { toolCalls: [{ callId: 'q1', name: 'ask_user', input: { question: 'Which license?', suggestions: ['MIT', 'Apache-2.0'] } }] },
      planReply({
        objective: 'Add the license',
        steps: [{ id: 'L1', title: 'Write the Apache license', kind: 'tool', tool: 'write_file', args: { path: 'chat-license.txt', content: 'Apache-2.0\n' }, dependsOn: [] }],
      }),
    );
    const before = api.planTreeLabels();
    const asked = await send('plan', 'Add a license file');
    assert.equal(fake.requests().length, 1, 'planning asked, then waits for the answer');
    const metadata = asked.result?.metadata as { question?: unknown; suggestions?: unknown } | undefined;
    assert.equal(typeof metadata?.question, 'string', 'the response says which question it ended with');
    assert.deepEqual(metadata?.suggestions, ['MIT', 'Apache-2.0'], 'the suggestions, offered as follow-ups');
    assert.match(asked.markdown(), /\*\*Before planning: Which license\?\*\*\n- MIT\n- Apache\\-2\\.0\n\nAnswer with your next message[^\n]*$/, 'the response ends with the question');
    assert.equal(asked.parts.filter((part) => part.kind === 'button').length, 0, 'no plan yet, so no Start');
    assert.deepEqual(api.planTreeLabels(), before, 'the Plan tree still holds the earlier plan');

    // The user answers in the same conversation (a click on the follow-up "Apache-2.0" sends the same message).
    const conversation = {
      history: [
        { prompt: 'Add a license file', command: 'plan', participant: 'taskPlanner.planner', references: [], toolReferences: [] },
        { result: asked.result, response: [], participant: 'taskPlanner.planner', command: 'plan' },
      ],
    } as unknown as vscode.ChatContext;
    const answer = async () => {
      const recorded = recordingStream();
      const result = await api.chat(chatRequest(model, undefined, 'Apache-2.0'), conversation, recorded.stream, new vscode.CancellationTokenSource().token);
      return { ...recorded, result };
    };
    const answered = await answer();
    assert.equal(fake.requests().length, 2, 'planning went on with the answer');
    assert.ok(JSON.stringify(fake.requests()[1]).includes('Apache-2.0'), 'the answer reached the model');
    const text = answered.markdown();
    assert.match(text, /^Your answer: Apache\\-2\\.0\n/);
    assert.match(text, /\n1\. Write the Apache license \(L1\) — _write\\_file_\n\n\*\*Add a license file\*\* \(1 step\)\n\nCritic: /);
    assert.deepEqual(answered.parts.flatMap((part) => (part.kind === 'button' ? [part.command.title] : [])), ['Review in panel', 'Start']);
    assert.deepEqual(api.planTreeLabels(), ['1. Write the Apache license']);
    assert.deepEqual(api.currentPlan()?.basis?.answers, [{ question: 'Which license?', answer: 'Apache-2.0' }], 'the answer is part of the plan\'s basis');

    // The same answer again: the question has been answered, so it is no longer waiting, and nothing is planned.
    const again = await answer();
    assert.match(again.markdown(), /That planning question is no longer waiting .* Ask again with \/plan and your request\./);
    assert.equal(fake.requests().length, 2);
  });

  it('a hostile step title reaches the chat as inert text: no link, command URI, image or HTML', async () => {
    const hostile = 'Fix [it](command:workbench.action.terminal.new?%5B%5D) ![x](https://evil.example/x.png) <img src=x onerror=alert(1)> www.evil.example';
    fake.script(planReply({ objective: '<b>bold</b> [objective](https://evil.example)', steps: [{ id: 'M1', title: hostile, kind: 'human_review', input: 'look', dependsOn: [] }] }));
    const planned = await send('plan', 'Review something');
    const text = planned.markdown();
    // What is left once every backslash-escaped character is taken out holds no Markdown or HTML syntax.
    const bare = text.replace(/\\[!-/:-@[-`{-~]/g, '');
    assert.ok(!bare.includes('](') && !bare.includes('<') && !bare.includes('>'), `an unescaped link or HTML in: ${text}`);
    assert.ok(!text.includes('www.evil'), `a bare address that would become a link in: ${text}`);
    assert.match(text, /Fix \\\[it\\\]\\\(command\\:workbench\\\.action/);
  });

  it('a follow-up edits the plan through the model\'s plan tools: "drop the read step"', async () => {
    fake.script(
      twoReads,
      { toolCalls: [{ callId: 'c1', name: 'plan_read_plan', input: {} }] },
      { toolCalls: [{ callId: 'c2', name: 'plan_remove_step', input: { stepId: 'B1' } }] },
      { text: 'I removed step 2, "Read the package".' },
    );
    await send('plan', 'Read the readme and the package');
    const answer = await send(undefined, 'drop the package step');
    assert.equal(fake.pending(), 0);
    assert.deepEqual(api.planTreeLabels(), ['1. Read the readme']);
    const text = answer.markdown();
    assert.match(text, /I removed step 2, "Read the package"\\\./);
    assert.match(text, /Changes to the plan \(now version 2\):\n- Removed step B1 \\\(Read the package\\\)\\\./);
    assert.deepEqual(answer.parts.flatMap((part) => (part.kind === 'button' ? [part.command.title] : [])), ['Review in panel', 'Start']);
  });

  it('a follow-up whose model is still working when the plan is replaced changes nothing: the newer plan stays', async () => {
    fake.script(
      twoReads,
      // The model answers the follow-up slowly: it holds its reply until the test lets it go.
      { toolCalls: [{ callId: 'c1', name: 'plan_remove_step', input: { stepId: 'B1' } }], hang: 'forever' },
    );
    await send('plan', 'Read the readme and the package');
    const read = api.currentPlan()!;
    const asked = fake.requests().length;
    const answering = send(undefined, 'drop the package step');
    while (fake.requests().length === asked) await new Promise((resolve) => setTimeout(resolve, 10));
    // Meanwhile another plan becomes the current one (the panel, another chat's /plan, Plan task).
    const newer = { ...read, id: 'newer-plan', objective: 'Newer', steps: read.steps.map((step) => ({ ...step, title: `Newer: ${step.title}` })) };
    api.setCurrentPlan(newer);
    fake.reset();
    fake.script({ text: 'I removed step 2.' });
    const answer = await answering;
    assert.equal(fake.pending(), 0);
    assert.deepEqual(api.currentPlan(), newer, 'the follow-up overwrote the plan that replaced the one it read');
    assert.match(answer.markdown(), /The plan changed while the model worked on it .* none of these changes were made/);
    assert.equal(answer.parts.filter((part) => part.kind === 'button').length, 0, 'no Start for a plan that is not the current one');
  });

  it('/plan attaches what the request references, never an editor selection the chat did not send, nor a file outside the workspace', async () => {
    const readme = vscode.Uri.file(join(root, 'README.md'));
    const editor = await vscode.window.showTextDocument(readme);
    editor.selection = new vscode.Selection(0, 0, 1, 0);
    try {
      const agentPlan = planReply({ objective: 'Summarise', steps: [{ id: 'A1', title: 'Summarise', kind: 'agent', agent: 'direct', input: 'Summarise', dependsOn: [] }] });
      fake.script(agentPlan);
      await send('plan', 'Summarise the readme');
      assert.deepEqual(api.currentPlan()?.steps[0]?.attachments ?? [], [], 'the editor\'s selection went with a chat request that did not reference it');

      fake.script(agentPlan);
      const outside = vscode.Uri.file('/etc/hostname');
      const references = [
        { id: 'vscode.implicit.selection', value: new vscode.Location(readme, new vscode.Range(0, 0, 1, 0)) },
        { id: 'file', value: outside },
      ];
      const recorded = recordingStream();
      const request = { ...chatRequest(model, 'plan', 'Summarise the readme'), references } as unknown as vscode.ChatRequest;
      await api.chat(request, context, recorded.stream, new vscode.CancellationTokenSource().token);
      assert.deepEqual(
        api.currentPlan()?.steps[0]?.attachments?.map((attachment) => [attachment.kind, attachment.ref, attachment.text]),
        [['file', 'README.md#L1-L2', undefined]],
      );
      assert.match(recorded.markdown(), /Not attached: \\\/etc\\\/hostname is not a file of an open workspace folder\./);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });

  it('stopping the chat request during /run cancels the run (resumable), and says so', async () => {
    fake.script(planReply({ objective: 'Write once', steps: [{ id: 'S1', title: 'Write stop.txt', kind: 'tool', tool: 'write_file', args: { path: 'chat-stop.txt', content: 'x' }, dependsOn: [] }] }));
    await send('plan', 'Write stop.txt');
    const source = new vscode.CancellationTokenSource();
    const running = send('run', '', source.token);
    await api.nextPrompt();
    source.cancel();
    const ran = await running;
    assert.equal(existsSync(join(root, 'chat-stop.txt')), false);
    assert.match(ran.markdown(), /cancelled in .*You stopped the chat request, so the run was cancelled\. Resume it from the Runs view\./s);
    assert.equal(api.isRunning(), false);
  });

  it('/run works with the model picked in the chat, as /plan does', async () => {
    fake.script(planReply({ objective: 'Summarise', steps: [{ id: 'A1', title: 'Say hello', kind: 'agent', agent: 'direct', input: 'Say hello', dependsOn: [] }] }));
    await send('plan', 'Say hello');
    // Another model picked for the run: only it may be asked.
    const asked: string[] = [];
    const picked = {
      ...model,
      id: 'picked-for-run',
      sendRequest: (messages: vscode.LanguageModelChatMessage[], options?: vscode.LanguageModelChatRequestOptions, token?: vscode.CancellationToken) => {
        asked.push('picked');
        return model.sendRequest(messages, options, token);
      },
    } as unknown as vscode.LanguageModelChat;
    fake.script({ text: 'hello from the picked model' });
    const before = fake.requests().length;
    const recorded = recordingStream();
    await api.chat(chatRequest(picked, 'run', ''), context, recorded.stream, new vscode.CancellationTokenSource().token);
    assert.deepEqual(asked, ['picked'], 'the agent step asked the model picked in the chat');
    assert.equal(fake.requests().length, before + 1);
    assert.match(recorded.markdown(), /completed in .*1 of 1 steps? completed/);
  });

  it('without a model, a follow-up says what works without one; /plan uses the heuristic planner', async () => {
    fake.setEnabled(false);
    try {
      const noModel = { ...model, sendRequest: () => Promise.reject(new Error('no model')) } as unknown as vscode.LanguageModelChat;
      const config = vscode.workspace.getConfiguration('taskPlanner');
      await config.update('llm.provider', 'heuristic', vscode.ConfigurationTarget.Workspace);
      try {
        const recorded = recordingStream();
        await api.chat(chatRequest(noModel, 'plan', 'Read README.md, then list the files'), context, recorded.stream, new vscode.CancellationTokenSource().token);
        assert.match(recorded.markdown(), /\(2 steps\)/);
        const followUp = recordingStream();
        await api.chat(chatRequest(noModel, undefined, 'why step 2?'), context, followUp.stream, new vscode.CancellationTokenSource().token);
        assert.match(followUp.markdown(), /Questions and changes in words need a model/);
      } finally {
        await config.update('llm.provider', undefined, vscode.ConfigurationTarget.Workspace);
      }
    } finally {
      fake.setEnabled(true);
    }
  });
});
