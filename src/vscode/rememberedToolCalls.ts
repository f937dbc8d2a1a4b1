import type * as vscode from 'vscode';

/** One remembered answer: its key (see `rememberedCallKey`) and what the user saw ("MCP server \"db\": query"). */
export interface RememberedCall {
  key: string;
  label: string;
}

const stateKey = 'taskPlanner.rememberedToolCalls';
/** Most answers kept per workspace; the oldest go first. */
export const maxRememberedCalls = 500;

/**
 * The tool calls the user chose to always allow in this workspace ("Always allow in this
 * workspace" in a tool call's question), kept in the workspace state: VS Code's storage for
 * this workspace, which nothing in the folder can write, so a workspace cannot allow its
 * own tools. Keys come from the tool's owner and change when what runs the tool changes.
 */
export class RememberedToolCalls {
  constructor(private readonly state: vscode.Memento) {}

  /** Whether every call under `key` is allowed. */
  has(key: string): boolean {
    return this.list().some((call) => call.key === key);
  }

  /** Every remembered answer, oldest first. */
  list(): RememberedCall[] {
    const stored = this.state.get<unknown>(stateKey);
    if (!Array.isArray(stored)) return [];
    return stored.filter(
      (item): item is RememberedCall =>
        typeof item === 'object' && item !== null && typeof (item as RememberedCall).key === 'string' && typeof (item as RememberedCall).label === 'string',
    );
  }

  /** Remembers `key` (shown as `label`), keeping at most `maxRememberedCalls`. */
  async remember(key: string, label: string): Promise<void> {
    const kept = this.list().filter((call) => call.key !== key);
    await this.state.update(stateKey, [...kept, { key, label }].slice(-maxRememberedCalls));
  }

  /** Forgets the answers whose key starts with `prefix` (every answer for `''`); how many went. */
  async forget(prefix: string): Promise<number> {
    const all = this.list();
    const kept = all.filter((call) => !call.key.startsWith(prefix));
    await this.state.update(stateKey, kept);
    return all.length - kept.length;
  }
}
