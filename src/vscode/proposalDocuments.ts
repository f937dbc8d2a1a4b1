import * as vscode from 'vscode';
import type { FileProposal } from '../core/ports';

/** The URI scheme of the two virtual sides of an approval diff. */
export const proposalScheme = 'task-planner-proposal';

/**
 * Serves both sides of a proposed file change as read-only virtual documents
 * (`task-planner-proposal:/<path>?step=<id>&side=current|proposed`), so the diff editor
 * shows the change before anything touches the real file.
 */
export class ProposalDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /**
   * Stores both sides of `proposal` for step `stepId`; returns their URIs, which carry
   * `requestId` so an Approve from this diff answers only this request.
   */
  put(stepId: string, proposal: FileProposal, requestId?: string): { current: vscode.Uri; proposed: vscode.Uri } {
    const request = requestId === undefined ? '' : `&request=${encodeURIComponent(requestId)}`;
    const uriFor = (side: 'current' | 'proposed'): vscode.Uri =>
      vscode.Uri.from({ scheme: proposalScheme, path: `/${proposal.path}`, query: `step=${encodeURIComponent(stepId)}&side=${side}${request}` });
    const current = uriFor('current');
    const proposed = uriFor('proposed');
    this.texts.set(current.toString(), proposal.currentText ?? '');
    this.texts.set(proposed.toString(), proposal.proposedText ?? '');
    this.changed.fire(current);
    this.changed.fire(proposed);
    return { current, proposed };
  }

  /** Forgets the documents of `stepId`. */
  drop(stepId: string): void {
    for (const key of [...this.texts.keys()]) {
      if (stepOf(vscode.Uri.parse(key)) === stepId) this.texts.delete(key);
    }
  }

  /** Closes the diff editors of `stepId`'s proposal (its run was cancelled) and forgets its documents. */
  async close(stepId: string): Promise<void> {
    await closeProposalDiffs(stepId);
    this.drop(stepId);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.texts.clear();
    this.changed.dispose();
  }
}

/** Closes every diff editor showing `stepId`'s proposal (answered, or its run cancelled); never throws. */
export async function closeProposalDiffs(stepId: string): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && stepOf(tab.input.modified) === stepId);
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true).then(undefined, () => false);
}

/** The step id a proposal URI belongs to, `undefined` for other URIs. */
export function stepOf(uri: vscode.Uri | undefined): string | undefined {
  if (!uri || uri.scheme !== proposalScheme) return undefined;
  const step = new URLSearchParams(uri.query).get('step');
  return step ?? undefined;
}

/** The request id a proposal URI was made for, `undefined` for other URIs. */
export function requestOf(uri: vscode.Uri | undefined): string | undefined {
  if (!uri || uri.scheme !== proposalScheme) return undefined;
  return new URLSearchParams(uri.query).get('request') ?? undefined;
}
