import { capText } from '../text/capText';
import type { AgentChanges } from '../text/agentChanges';
import { feedbackMaxChars } from '../tools/approvalFeedback';
import type { ToolEffect } from '../tools/tool';

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
