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
 * (a tool error, invalid arguments). Each list keeps at most `maxListedChanges` (agent/changeLog.ts) entries in
 * call order; `omitted` counts those left out.
 */
export interface AgentChanges {
  applied: ChangeRecord[];
  rejected: ChangeRecord[];
  failed: ChangeRecord[];
  omitted?: number;
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
