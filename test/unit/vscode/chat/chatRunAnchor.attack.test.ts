// Attack on the chat's links to a run's changed files: a file a model's step created under a name holding tag characters
// (a workspace path may hold them), linked by name in the chat after the run.
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import type { RunState } from '../../../../src/core/engine/runEvents';
import type * as ChatRunModule from '../../../../src/vscode/chat/chatRun';
import type { ChatDeps } from '../../../../src/vscode/chat/chatDeps';
import { requireWithVscode } from '../../../fakes/requireWithVscode';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('attack: the chat names each changed file it links as it is', () => {
  it("spells out tag characters and a line separator in a link's title", () => {
    const folder = { name: 'ws', index: 0, uri: { path: '/ws' } };
    const { chatStatus } = requireWithVscode<typeof ChatRunModule>(require.resolve('../../../../src/vscode/chat/chatRun'), {
      workspace: { workspaceFolders: [folder] },
      Uri: { joinPath: (base: { path: string }, path: string) => ({ path: `${base.path}/${path}` }) },
    });
    const tags = [...'.bak'].map((char) => String.fromCodePoint(0xe0000 + char.charCodeAt(0))).join('');
    const plan = makePlan([makeStep('A', { title: 'Edit' })]);
    const state: RunState = { ...initialRunState('r1'), plan, status: 'completed', changedFiles: [`config.ts${tags}`, 'notes\u2028(approved).md'] };
    const anchors: string[] = [];
    const stream = {
      markdown: () => undefined,
      anchor: (_uri: unknown, title: string) => void anchors.push(title),
      reference: () => undefined,
      button: () => undefined,
    } as unknown as vscode.ChatResponseStream;
    const deps = {
      tree: { currentPlan: () => plan },
      runs: { current: () => state, isRunning: () => false, runInfo: () => ({ state, folder }) },
    } as unknown as ChatDeps;
    chatStatus(deps, stream);
    assert.equal(anchors.length, 2);
    for (const title of anchors) assert.doesNotMatch(title, /[\u2028\u{e0000}-\u{e007f}]/u, JSON.stringify(title));
    assert.equal(anchors[1], "notes\\u2028(approved).md", "a line separator read as a space");
    assert.match(anchors[0]!, /^config\.ts\\udb40\\udc2e/);
  });
});
