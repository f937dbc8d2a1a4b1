import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { ChatDeps } from '../../../../src/vscode/chat/chatDeps';
import type { chatPlan as ChatPlan } from '../../../../src/vscode/chat/chatPlan';
import { PendingQuestions } from '../../../../src/vscode/chat/pendingQuestions';
import { requireWithVscode } from '../../../fakes/requireWithVscode';
import type { PlannedRequest } from '../../../../src/core/planner/planRequest';
import type { PlannerStep } from '../../../../src/core/planner/planStepStream';
import { chatLimits } from '../../../../src/core/view/chatMarkdown';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** What the handler streamed, as Markdown parts. */
function recordingStream(): { stream: vscode.ChatResponseStream; parts: string[] } {
  const parts: string[] = [];
  const stream = {
    markdown: (value: string) => void parts.push(value),
    progress: () => undefined,
    button: () => undefined,
    anchor: () => undefined,
    reference: () => undefined,
  } as unknown as vscode.ChatResponseStream;
  return { stream, parts };
}

// The chat's attachments read the active editor and the workspace folders: none here.
const { chatPlan } = requireWithVscode<{ chatPlan: typeof ChatPlan }>(require.resolve('../../../../src/vscode/chat/chatPlan'), {
  window: { activeTextEditor: undefined },
  workspace: { workspaceFolders: [], getWorkspaceFolder: () => undefined },
  Uri: class {},
  Location: class {},
});

const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) } as unknown as vscode.CancellationToken;
const request = { prompt: 'x', command: 'plan', references: [], model: undefined } as unknown as vscode.ChatRequest;

// A model (or a workspace file it read while planning) writes a plan of 100,000 steps: each is streamed to the chat as
// it is written, before the plan is parsed and checked.
describe('chatPlan: a model writing a huge plan cannot flood the chat', () => {
  it('streams at most chatLimits.steps steps as the model writes them, then says more are coming', async () => {
    const plan = makePlan([makeStep('S1', { title: 'One', kind: 'manual', input: 'do it' })], { id: 'p1', objective: 'Huge' });
    const deps = {
      tree: { currentPlan: () => undefined, setPlan: () => undefined },
      tools: () => [],
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      questions: new PendingQuestions(),
      model: () => Promise.resolve({ llm: undefined, label: 'heuristic planner' }),
      plan: (_text: string, _attachments: unknown, options: { onPartialStep: (step: PlannerStep, index: number) => void }) => {
        for (let index = 0; index < 100_000; index++) options.onPartialStep({ id: `S${index}`, title: `Step ${index} [link](command:x)` } as PlannerStep, index);
        return Promise.resolve({ plan, critique: { score: 5, summary: 'ok', issues: [] }, warnings: [] } as unknown as PlannedRequest);
      },
    } as unknown as ChatDeps;
    const { stream, parts } = recordingStream();
    await chatPlan(deps, request, 'plan a huge thing', stream, token);
    assert.match(parts.join(""), /Huge/, parts.join("").slice(0, 500));
    const lines = parts.join('').split('\n').length;
    assert.ok(lines < chatLimits.steps * 3, `the chat got ${lines} lines`);
    assert.ok(parts.join('').length < 100_000, `the chat got ${parts.join('').length} characters`);
    assert.doesNotMatch(parts.join(''), /\[link\]\(command:/);
  });
});
