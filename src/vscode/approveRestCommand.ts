import * as vscode from 'vscode';
import {
  describeGrant,
  grantLineChars,
  grantNeverCovers,
  makeGrant,
  type ApprovalGrant,
  type GrantReach,
  type WaitingFileApproval,
} from '../core/engine/approvalGrant';
import { terminalStepStatuses } from '../core/engine/runEvents';
import type { ToolRegistry } from '../core/tools/tool';
import type { ApprovalQueue } from './approvalQueue';
import type { PendingPrompt, PendingPrompts } from './pendingPrompts';
import { closeProposalDiffs, promptKeyOf } from './proposalDocuments';
import type { RunController } from './runController';
import { shownLine } from './shownText';
import { showInformation, showWarning } from './notifications';

/** What "Approve the rest…" needs. */
export interface ApproveRestDeps {
  pending: PendingPrompts;
  queue: ApprovalQueue;
  runs: Pick<RunController, 'runInfo'>;
  tools: () => ToolRegistry;
  log: vscode.LogOutputChannel;
}

/**
 * "Approve the rest…" (item 4 of issue 28), from the diff editor of a file change: a modal
 * lists what "Approve the rest of this step" and "Approve the rest of this run" would each
 * cover (`describeGrant`: the waiting changes as proposed, the files each step declared,
 * what still asks: commands never), its safe choice first. The choice approves the
 * waiting changes it listed and, for the rest of the run, later changes it listed; anything
 * else still asks. Takes a proposal diff's URI, else the active one's.
 */
export function registerApproveRest(deps: ApproveRestDeps): vscode.Disposable {
  return vscode.commands.registerCommand('taskPlanner.approveRest', async (arg?: unknown, reachArg?: unknown) => {
    // The editor title passes its own context as the second argument: only a reach named by a caller skips the question.
    const reach: GrantReach | undefined = reachArg === 'step' || reachArg === 'run' ? reachArg : undefined;
    const key = promptKeyOf(arg instanceof vscode.Uri ? arg : activeProposalUri());
    const prompt = key === undefined ? undefined : deps.pending.get(key);
    if (prompt?.kind !== 'approval' || prompt.request.kind !== 'file' || key?.runId === undefined) {
      return void showInformation(vscode.l10n.t('Task Planner: open the diff of a proposed change first; nothing was approved.'));
    }
    const state = deps.runs.runInfo(key.runId)?.state;
    const plan = state?.plan;
    if (plan === undefined) {
      return void showInformation(vscode.l10n.t('Task Planner: the run of this change is not known; nothing was approved.'));
    }
    const ended = new Set(Object.values(state?.steps ?? {}).flatMap((step) => (terminalStepStatuses.has(step.status) ? [step.id] : [])));
    const waiting = waitingFileApprovals(deps.pending.list(), key.runId);
    const grantOf = (of: GrantReach): ApprovalGrant =>
      makeGrant({ runId: key.runId ?? '', reach: of, stepId: prompt.stepId, plan, tools: deps.tools(), waiting, ended });
    // Made before the question: what is granted is exactly what was listed, never a change that arrived while the modal was open.
    const grants: Record<GrantReach, ApprovalGrant> = { step: grantOf('step'), run: grantOf('run') };
    const chosen = reach ?? (await chooseReach(prompt.stepId, grants));
    if (chosen === undefined) return;
    const grant = grants[chosen];
    const approved = deps.queue.grant(grant);
    deps.log.info(`Run ${key.runId}: approve the rest of ${chosen === 'step' ? `step ${prompt.stepId}` : 'the run'}; ${approved} waiting change(s) approved`);
    for (const item of waiting) {
      if (grant.requestIds.has(item.requestId)) await closeProposalDiffs({ stepId: item.request.stepId, requestId: item.requestId, runId: key.runId });
    }
  });
}

/**
 * The modal: what the step's reach covers, what the run's adds to it (nothing said twice), what neither covers; the safe
 * answer first, as Enter picks the first (a modal's Cancel comes last).
 */
async function chooseReach(stepId: string, grants: Record<GrantReach, ApprovalGrant>): Promise<GrantReach | undefined> {
  // The lines are as long as the grant allows (`grantLineChars`): cut here, what is covered would not all be shown.
  const bullets = (lines: readonly string[]): string => lines.map((line) => `• ${shownLine(line, grantLineChars)}`).join('\n');
  const ofStepLines = describeGrant(grants.step);
  const more = describeGrant(grants.run).filter((line) => !ofStepLines.includes(line));
  // Keep asking first, as a button of its own: Enter presses the first, and the dialog's own Cancel (an item marked as
  // the close affordance) is never the first (measured in e2e: Enter then pressed "Approve the rest of this step").
  const keepAsking = vscode.l10n.t('Keep asking');
  const ofStep = vscode.l10n.t('Approve the rest of this step');
  const ofRun = vscode.l10n.t('Approve the rest of this run');
  const runPart =
    more.length === 0
      ? vscode.l10n.t('"{0}" covers the same, nothing more.', ofRun)
      : `${vscode.l10n.t('"{0}" covers that, and:', ofRun)}\n${bullets(more)}`;
  const choice = await showWarning(
    vscode.l10n.t('Approve the rest without asking for each change?'),
    {
      modal: true,
      detail: `${vscode.l10n.t('"{0}" ({1}) covers:', ofStep, stepId)}\n${bullets(ofStepLines)}\n\n${runPart}\n\n${grantNeverCovers}.`,
    },
    keepAsking,
    ofStep,
    ofRun,
  );
  return choice === ofStep ? 'step' : choice === ofRun ? 'run' : undefined;
}

/** The file approvals of run `runId` waiting now, oldest first. */
function waitingFileApprovals(prompts: readonly PendingPrompt[], runId: string): WaitingFileApproval[] {
  return prompts.flatMap((prompt) =>
    prompt.kind === 'approval' && prompt.request.kind === 'file' && prompt.key.runId === runId && prompt.key.requestId !== undefined
      ? [{ requestId: prompt.key.requestId, request: prompt.request }]
      : [],
  );
}

function activeProposalUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return vscode.window.activeTextEditor?.document.uri.scheme === 'task-planner-proposal'
    ? vscode.window.activeTextEditor.document.uri
    : input instanceof vscode.TabInputTextDiff
      ? input.modified
      : undefined;
}
