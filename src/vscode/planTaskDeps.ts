// What "Plan task" and the planning behind it are wired with (src/extension.ts builds one for the window).
import type * as vscode from 'vscode';
import type { Tool } from '../core/tools/tool';
import type { ApiKeyStore } from './apiKeyStore';
import type { PlanReview } from './planReview';
import type { PlanTreeProvider } from './planTreeProvider';
import type { RequestEditors } from './requestEditor';
import type { RunController } from './runController';

/** What "Plan task" works with (wired in `activate`). */
export interface PlanTaskDeps {
  tree: PlanTreeProvider;
  log: vscode.LogOutputChannel;
  keys: ApiKeyStore;
  tools: () => readonly Tool[];
  runs: RunController;
  /** The review before the run, as `taskPlanner.review.show` chooses: the plan panel or a QuickPick. */
  review: () => PlanReview;
  /** Multi-line requests written in an editor. */
  requests: RequestEditors;
  /** Asks which workspace folder to plan in (a window of several); default: VS Code's folder pick. `undefined`: cancelled. */
  pickFolder?: (folders: readonly vscode.WorkspaceFolder[]) => Promise<vscode.WorkspaceFolder | undefined>;
  /**
   * Makes `tools` complete before planning (starts the MCP servers once) and holds them until the planning ends (the
   * hold disposed): a change of their configuration meanwhile stops none of them. Never rejects.
   */
  holdTools?: () => Promise<vscode.Disposable>;
}
