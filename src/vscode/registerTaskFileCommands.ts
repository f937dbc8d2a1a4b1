import * as vscode from 'vscode';
import type { RunState } from '../core/engine/runEvents';
import type { Plan } from '../core/plan/planSchema';
import type { Tool } from '../core/tools/tool';
import { loadRuntime } from './loadRuntime';
import { planFolderUri, takePlanOfFile } from './filePlanFolder';
import type { PlanReview } from './planReview';
import type { PlanTreeProvider } from './planTreeProvider';
import type { RunController } from './runController';
import { workspaceRelative } from './workspaceRelative';

/** What the task-file commands are wired to (in `activate`). */
export interface TaskFileWiring {
  tree: PlanTreeProvider;
  runs: RunController;
  tools: () => readonly Tool[];
  review: () => PlanReview;
  log: vscode.LogOutputChannel;
  /** The plan "Export plan for another tool" writes: the plan panel's when it is in front, else the Plan view's. */
  plan: () => Plan | undefined;
  /** The run shown with that plan (the same view's), if any: its completed steps are exported ticked. */
  run: () => RunState | undefined | Promise<RunState | undefined>;
  /** True when a model runs agent steps. */
  model: () => boolean;
}

/**
 * The files "Plan from this file" is offered on (CodeLens and editor title): the names the
 * formats use, so no other Markdown file gets a lens; the lens shows only when the content
 * is in the format too (`offersPlanFromFile`).
 */
export const taskFileSelector: vscode.DocumentSelector = [
  { language: 'markdown', pattern: '**/tasks.md' },
  { language: 'markdown', pattern: '**/.cursor/plans/*.md' },
  { language: 'markdown', pattern: '**/*.plan.md' },
  { language: 'markdown', pattern: '**/plan-*.prompt.md' },
];

/**
 * Registers "Plan from file…" (command palette, a Markdown file's explorer menu, a task
 * file's editor title and CodeLens) and "Export plan for another tool". The work is done in the
 * runtime bundle, loaded on first use.
 */
export function registerTaskFileCommands(wiring: TaskFileWiring): vscode.Disposable[] {
  const deps = (folder: vscode.WorkspaceFolder | undefined) => ({
    review: wiring.review,
    tools: wiring.tools,
    trusted: () => vscode.workspace.isTrusted,
    model: wiring.model,
    tick: () => vscode.workspace.getConfiguration('taskPlanner').get<boolean>('taskFiles.tickCheckboxes', false),
    showPlan: (plan: Plan) => {
      takePlanOfFile(wiring.runs, plan, folder);
      wiring.tree.setPlan(plan);
      void vscode.commands.executeCommand('taskPlanner.plan.focus');
    },
    start: (plan: Plan) => wiring.runs.start(plan, { folder }),
    run: wiring.run,
    now: () => Date.now(),
    folderOf: (plan: Plan) => planFolderUri(wiring.runs, plan),
    log: wiring.log,
    ui: loadRuntime().vscodeTaskFileUi,
  });
  return [
    vscode.commands.registerCommand('taskPlanner.planFromFile', async (uri: unknown) => {
      const target = await taskFileUri(uri);
      if (!target) return {};
      const document = await vscode.workspace.openTextDocument(target);
      const folder = vscode.workspace.getWorkspaceFolder(target);
      const place = folder ? workspaceRelative(folder.uri, target) : undefined;
      const inside = place !== undefined && 'path' in place ? place.path : undefined;
      const source = { name: inside ?? target.path.split('/').pop()!, text: document.getText(), inWorkspace: inside !== undefined };
      return loadRuntime().planFromTaskFile(source, deps(folder));
    }),
    vscode.commands.registerCommand('taskPlanner.exportPlanAsTaskFile', () => loadRuntime().exportPlanAsTaskFile(wiring.plan(), deps(undefined))),
    vscode.languages.registerCodeLensProvider(taskFileSelector, {
      provideCodeLenses: (document) =>
        loadRuntime().offersPlanFromFile(vscode.workspace.asRelativePath(document.uri), document.getText())
          ? [
              new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
                title: vscode.l10n.t('$(checklist) Plan from this file'),
                tooltip: vscode.l10n.t('Review these tasks as a plan, then run it'),
                command: 'taskPlanner.planFromFile',
                arguments: [document.uri],
              }),
            ]
          : [],
    }),
  ];
}

/** The file a command was given (a menu's or CodeLens's), else the active Markdown editor's, else one the user picks. */
async function taskFileUri(given: unknown): Promise<vscode.Uri | undefined> {
  if (given instanceof vscode.Uri) return given;
  const active = vscode.window.activeTextEditor?.document;
  if (active?.languageId === 'markdown') return active.uri;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    filters: { Markdown: ['md'] },
    openLabel: vscode.l10n.t('Plan from this file'),
    title: vscode.l10n.t('Plan from a task file (Spec Kit, Kiro, Cursor, Copilot or a checklist)'),
  });
  return picked?.[0];
}
