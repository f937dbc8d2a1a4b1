import { capText } from '../text/capText';
import { feedbackMaxChars } from '../tools/approvalFeedback';
import type { ToolEffect } from '../tools/tool';

/** One file change an agent asked for: the tool (`write_file`, `delete_file`…), its path, and why it did not happen. */
export interface ChangeRecord {
  operation: string;
  /** Workspace-relative, as the model gave it; absent when the arguments named none. */
  path?: string;
  /** Why it was rejected or failed (the user's reason, the tool's error); absent for applied changes. */
  reason?: string;
  /** A rejected change's feedback: what the user asked instead (Reject with feedback…). */
  feedback?: true;
}

/**
 * What an agent step did to the files, by outcome: applied, rejected by the user, failed
 * (a tool error, invalid arguments). Each list keeps at most `maxListedChanges` entries in
 * call order; `omitted` counts those left out.
 */
export interface AgentChanges {
  applied: ChangeRecord[];
  rejected: ChangeRecord[];
  failed: ChangeRecord[];
  omitted?: number;
}

/** Most entries of each list of `AgentChanges`. */
export const maxListedChanges = 50;
const maxPathChars = 300;
const maxReasonChars = 500;

/** Effects whose calls are file changes (a command is not: its outcome is its output). */
const changeEffects: ReadonlySet<ToolEffect> = new Set(['write', 'delete']);

/** Whether a call of a tool with `effect` is a file change the agent's result reports. */
export function isChangeEffect(effect: ToolEffect): boolean {
  return changeEffects.has(effect);
}

/** Collects an agent attempt's file changes as its tool calls end. */
export class ChangeLog {
  private readonly lists: AgentChanges = { applied: [], rejected: [], failed: [] };
  private omitted = 0;

  /**
   * Records one call of a change tool: `argumentsJson` is the call's raw arguments (its
   * `path` is kept, capped), `outcome` how it ended and, unless applied, why (with `feedback`,
   * a rejection's reason is what the user asked instead).
   */
  record(operation: string, argumentsJson: string, outcome: 'applied' | 'rejected' | 'failed', reason?: string, feedback?: boolean): void {
    const list = this.lists[outcome];
    if (list.length >= maxListedChanges) {
      this.omitted++;
      return;
    }
    const path = pathOf(argumentsJson);
    list.push({
      operation,
      ...(path === undefined ? {} : { path: capText(path, maxPathChars) }),
      ...(outcome === 'applied' || reason === undefined ? {} : { reason: capText(reason, feedback === true ? feedbackMaxChars : maxReasonChars) }),
      ...(outcome === 'rejected' && feedback === true ? { feedback: true as const } : {}),
    });
  }

  /** A copy of what was recorded so far. */
  changes(): AgentChanges {
    return {
      applied: [...this.lists.applied],
      rejected: [...this.lists.rejected],
      failed: [...this.lists.failed],
      ...(this.omitted > 0 ? { omitted: this.omitted } : {}),
    };
  }
}

/** True when the agent tried to change files and none of its changes happened. */
export function noChangeHappened(changes: AgentChanges): boolean {
  return changes.applied.length === 0 && changes.rejected.length + changes.failed.length > 0;
}

/** One line per non-empty list: "applied: write_file notes.md", "rejected: edit_file a.ts (not now)". Empty when nothing was changed or tried. */
export function changesText(changes: AgentChanges): string {
  const lines: string[] = [];
  for (const outcome of ['applied', 'rejected', 'failed'] as const) {
    const list = changes[outcome];
    if (list.length === 0) continue;
    lines.push(`${outcome}: ${list.map(changeText).join('; ')}`);
  }
  if (changes.omitted !== undefined && changes.omitted > 0) lines.push(`(${changes.omitted} more changes not listed)`);
  return lines.join('\n');
}

function changeText(change: ChangeRecord): string {
  return `${change.operation}${change.path === undefined ? '' : ` ${change.path}`}${change.reason === undefined ? '' : ` (${change.reason})`}`;
}

function pathOf(argumentsJson: string): string | undefined {
  try {
    const args = JSON.parse(argumentsJson) as unknown;
    if (args !== null && typeof args === 'object' && Object.hasOwn(args, 'path')) {
      const path = (args as { path?: unknown }).path;
      if (typeof path === 'string') return path;
    }
  } catch {
    // The arguments were not JSON: the change is listed without a path.
  }
  return undefined;
}
