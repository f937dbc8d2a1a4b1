// Attack on the chat's links to a run's changed files: a journal naming a file that holds tag characters or a line
// separator (no workspace path may hold them since 2026-12-07, an older or forged journal can), shown in the chat.
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import type { RunState } from '../../../../src/core/engine/runEvents';
import type * as ChatRunModule from '../../../../src/vscode/chat/chatRun';
import type { ChatDeps } from '../../../../src/vscode/chat/chatDeps';
import { requireWithVscode } from '../../../fakes/requireWithVscode';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('attack: the chat names each changed file it links as it is', () => {
  it('names such a file with its tag characters and line separator spelled out, and links it nowhere', () => {
    const folder = { name: 'ws', index: 0, uri: { path: '/ws' } };
    const { chatStatus } = requireWithVscode<typeof ChatRunModule>(require.resolve('../../../../src/vscode/chat/chatRun'), {
      workspace: { workspaceFolders: [folder] },
      Uri: { joinPath: (base: { path: string }, path: string) => ({ path: `${base.path}/${path}` }) },
    });
    const tags = [...'.bak'].map((char) => String.fromCodePoint(0xe0000 + char.charCodeAt(0))).join('');
    const plan = makePlan([makeStep('A', { title: 'Edit' })]);
    const state: RunState = { ...initialRunState('r1'), plan, status: 'completed', changedFiles: [`config.ts${tags}`, 'notes\u2028(approved).md'] };
    const anchors: string[] = [];
    const written: string[] = [];
    const stream = {
      markdown: (text: string) => void written.push(text),
      anchor: (_uri: unknown, title: string) => void anchors.push(title),
      reference: () => undefined,
      button: () => undefined,
    } as unknown as vscode.ChatResponseStream;
    const deps = {
      tree: { currentPlan: () => plan },
      runs: { current: () => state, isRunning: () => false, runInfo: () => ({ state, folder }) },
    } as unknown as ChatDeps;
    chatStatus(deps, stream);
    assert.deepEqual(anchors, [], 'a path no workspace tool takes is never a link');
    const text = written.join('');
    assert.doesNotMatch(text, /[\u2028\u{e0000}-\u{e007f}]/u, JSON.stringify(text));
    assert.match(text, /notes\\+u2028\\?\(approved\\?\)\\?\.md/, 'a line separator read as a space');
    assert.match(text, /config\\?\.ts\\+udb40\\+udc2e/);
  });
});
