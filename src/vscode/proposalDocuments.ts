import * as vscode from 'vscode';
import type { FileProposal } from '../core/interactionPorts';
import { sameKey, type PromptKey } from './pendingPrompts';

/** The URI scheme of the two virtual sides of an approval diff. */
export const proposalScheme = 'task-planner-proposal';

/**
 * Serves both sides of a proposed file change as read-only virtual documents
 * (`task-planner-proposal:/<path>?step=<id>&side=current|proposed&request=<id>&run=<id>`), so
 * the diff editor shows the change before anything touches the real file. The URIs name the
 * request and the run that asked (`PromptKey`): an Approve from the diff answers only that
 * request of that run, and closing one run's diff leaves another run's diff of the same step open.
 */
export class ProposalDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** Stores both sides of `proposal` for the request `key`; returns their URIs, which carry the key. */
  put(key: PromptKey, proposal: FileProposal): { current: vscode.Uri; proposed: vscode.Uri } {
    const query = (side: 'current' | 'proposed'): string => {
      const params = new URLSearchParams({ step: key.stepId, side });
      if (key.requestId !== undefined) params.set('request', key.requestId);
      if (key.runId !== undefined) params.set('run', key.runId);
      return params.toString();
    };
    const uriFor = (side: 'current' | 'proposed'): vscode.Uri => vscode.Uri.from({ scheme: proposalScheme, path: `/${proposal.path}`, query: query(side) });
    const current = uriFor('current');
    const proposed = uriFor('proposed');
    this.texts.set(current.toString(), proposal.currentText ?? '');
    this.texts.set(proposed.toString(), proposal.proposedText ?? '');
    this.changed.fire(current);
    this.changed.fire(proposed);
    return { current, proposed };
  }

  /** Forgets the documents of the request `key`. */
  drop(key: PromptKey): void {
    for (const uri of [...this.texts.keys()]) {
      const shown = promptKeyOf(vscode.Uri.parse(uri));
      if (shown && sameKey(shown, key)) this.texts.delete(uri);
    }
  }

  /** Closes the diff editors of the request `key` (its run was cancelled) and forgets its documents. */
  async close(key: PromptKey): Promise<void> {
    await closeProposalDiffs(key);
    this.drop(key);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.texts.clear();
    this.changed.dispose();
  }
}

/** Closes every diff editor showing the proposal of the request `key` (answered, or its run cancelled); never throws. */
export async function closeProposalDiffs(key: PromptKey): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => {
      if (!(tab.input instanceof vscode.TabInputTextDiff)) return false;
      const shown = promptKeyOf(tab.input.modified);
      return shown !== undefined && sameKey(shown, key);
    });
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true).then(undefined, () => false);
}

/** The request (step, request id, run) a proposal URI was made for, `undefined` for other URIs. */
export function promptKeyOf(uri: vscode.Uri | undefined): PromptKey | undefined {
  if (!uri || uri.scheme !== proposalScheme) return undefined;
  const params = new URLSearchParams(uri.query);
  const stepId = params.get('step');
  if (stepId === null) return undefined;
  return { stepId, requestId: params.get('request') ?? undefined, runId: params.get('run') ?? undefined };
}
