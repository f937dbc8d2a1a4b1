import * as vscode from 'vscode';
import type { RunState } from '../core/engine/runEvents';
import type { Plan } from '../core/plan/planSchema';
import type { SessionPlan } from '../core/session/sessionPlan';
import { planTreeModel, spokenRow, type PlanTreeLayout, type PlanTreeNode, type StepNodeCache } from '../core/view/planTreeModel';
import { capText } from '../core/text/capText';
import { planName } from '../core/plan/planName';
import { visibleControls } from '../shared/visibleCharacters';
import { sessionTreeModel } from '../core/view/sessionTreeModel';
import { diffTrees, indexTree } from '../core/view/treeDiff';
import { planTreeItem } from './planTreeItem';
import { shownLine } from './shownText';
import { runStatusWithUndo, type UndoneExtent } from '../shared/runStatusLabels';
import { undoneExtent, type UndoneChanges } from '../core/tools/undoneChanges';
import { awaitsRepair } from '../core/engine/awaitsRepair';

/**
 * The Plan view's data: whichever changed last of the task plan (under review, or the
 * active run's snapshot with statuses) and a chat agent's session plan (`planning_*`
 * tools); empty shows the welcome content. Node objects keep
 * their identity by id across snapshots, and only the items whose rendering changed are
 * refreshed.
 */
export class PlanTreeProvider implements vscode.TreeDataProvider<PlanTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<PlanTreeNode | PlanTreeNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private nodes: PlanTreeNode[] = [];
  /** What the rows last sent to the view were of (`render`): what is shown, the plan's id and the view's title. */
  private renderedIdentity = '';
  private plan: Plan | undefined;
  private run: RunState | undefined;
  private undone: { runId: string; steps: ReadonlySet<string>; extent: UndoneExtent | undefined } | undefined;
  private session: SessionPlan | undefined;
  private showing: 'plan' | 'session' = 'plan';
  private folder: string | undefined;
  /**
   * Set while the user looks at something other than the run going on: a run opened that is not executing, or a plan
   * (under review, or edited); `runId` is that run's (`undefined`: a plan). `follow` leaves it on screen until an
   * execution starts (`release`) or the user shows another run.
   */
  private held: { runId: string | undefined } | undefined;
  /**
   * What the view showed before the plan not run it shows now (`setPlan` of another plan), each with what it showed
   * before that: a review that ends without a run puts it back (`reviewEnded`). Gone once a run shows.
   */
  private previous: ShownBefore | undefined;
  // Nodes of unchanged steps are reused, so each run event costs a lookup per step, not a rebuild.
  private readonly nodeCache: StepNodeCache = new WeakMap();
  /** What the context key `taskPlanner.shownRunResumable` was last set to (the view's Resume run button). */
  private resumableShown = false;

  constructor(private layout: PlanTreeLayout = 'flat') {}

  /** Shows `plan` before it runs (or nothing); the snapshots of a run going on do not replace it (`follow`) until an execution starts. */
  setPlan(plan: Plan | undefined): void {
    // Another version of the plan shown (an edit in the review) keeps what the view showed before that plan.
    if (!this.showsPlanNotRun(plan?.id)) this.previous = this.shownBefore();
    this.plan = plan;
    this.run = undefined;
    this.held = { runId: undefined };
    this.showing = 'plan';
    this.render();
  }

  /**
   * Shows a run's snapshot the user chose (from the Runs view, the status bar, a notification). `held`: it is not the
   * run executing, so the snapshots of the one executing do not replace it (`follow`) until an execution starts.
   */
  setRun(state: RunState, held: boolean): void {
    this.held = held ? { runId: state.runId } : undefined;
    this.show(state);
  }

  /**
   * A snapshot of the current folder's run (its run went on, or the current folder changed): shown unless the user chose
   * something else to look at since the last execution started; a snapshot of the run shown is always shown.
   */
  follow(state: RunState): void {
    if (this.held !== undefined && this.held.runId !== state.runId) return;
    this.show(state);
  }

  /** An execution started (a run, a resume, Retry…): the tree follows the current folder's run again. */
  release(): void {
    this.held = undefined;
  }

  /**
   * The review of plan `planId` ended without a run (Cancel, the panel closed, another review took its place): the view
   * shows again what it showed before that plan (the last run, or nothing: its welcome), while it still shows a version
   * of that plan not run; a review another one took the place of leaves the chain, so its Cancel does not bring it back.
   */
  reviewEnded(planId: string): void {
    if (this.showsPlanNotRun(planId)) {
      const before = this.previous;
      if (!before) return;
      this.plan = before.plan;
      this.run = before.run;
      this.held = before.held;
      this.showing = before.showing;
      this.previous = before.previous;
      return this.render();
    }
    this.previous = withoutPlan(this.previous, planId);
  }

  /** Whether the view shows a version of plan `planId` that has not run. */
  private showsPlanNotRun(planId: string | undefined): boolean {
    return planId !== undefined && this.showing === 'plan' && this.run === undefined && this.plan?.id === planId;
  }

  /** What the view shows now, to put back after a review (`previous`). */
  private shownBefore(): ShownBefore {
    return { plan: this.plan, run: this.run, held: this.held, showing: this.showing, previous: this.previous };
  }

  /**
   * Marks the steps of run `runId` whose changes Undo took back (and whether some change is left), shown while the tree
   * shows that run: on its steps, and after its status in the view's title ("completed · changes undone").
   */
  setUndone(runId: string, undone: Pick<UndoneChanges, 'steps' | 'anyLeft'>): void {
    this.undone = { runId, steps: undone.steps, extent: undoneExtent(undone) };
    if (this.run?.runId === runId) this.render();
  }

  /** The run whose undone steps the tree knows (`setUndone`), if any. */
  undoneKnownFor(): string | undefined {
    return this.undone?.runId;
  }

  /**
   * Shows a chat agent's session plan (a todo list kept through the `planning_*` tools), unless the view shows what the
   * user is to act on: a plan under review (the view's Save, Export and Review act on it) or a run waiting for an answer
   * (its Approve and Reject rows). Another agent's tool call hid those until the next run event; the session plan then
   * shows at its next change once they are settled.
   */
  setSessionPlan(plan: SessionPlan | undefined): void {
    this.session = plan;
    if (!this.awaitsUser()) this.showing = 'session';
    this.render();
  }

  /** Whether the view shows a task plan under review, or a run with a step waiting for the user. */
  private awaitsUser(): boolean {
    if (this.showing !== 'plan' || this.plan === undefined) return false;
    return this.run === undefined || Object.values(this.run.steps).some((step) => step.pending !== undefined);
  }

  /**
   * Names the workspace folder the task plan is made for and runs in, in a row above its steps;
   * `undefined` (a window of one folder) shows no such row.
   */
  setFolder(name: string | undefined): void {
    this.folder = name;
    this.render();
  }

  /** Flat order or nested by dependency level. */
  setLayout(layout: PlanTreeLayout): void {
    this.layout = layout;
    this.render();
  }

  currentLayout(): PlanTreeLayout {
    return this.layout;
  }

  currentPlan(): Plan | undefined {
    return this.plan;
  }

  /**
   * What the view's title says it shows, since the plan panel may show another run: how its run stands and the request
   * ("running · Write notes.md"), the request alone for a plan not run, nothing for a chat's session plan.
   * One line, at most about 60 characters.
   */
  shownDescription(): string | undefined {
    if (this.showing === 'session' || this.plan === undefined) return undefined;
    // A plain "…": the view cuts its title at its own width too, and a "(N more characters cut)" note was cut with it.
    const objective = shownLine(planName(this.plan), 48);
    // The status first: the view cuts its title at its width, and a newcomer never saw "· nothing done" at the end.
    if (this.run === undefined) return objective;
    const undone = this.undone?.runId === this.run.runId ? this.undone.extent : undefined;
    // A newcomer's undone run still read "completed · …" above steps that showed their changes undone.
    return `${runStatusWithUndo(this.run.status, Object.values(this.run.steps), undone)} · ${objective}`;
  }

  /** The run snapshot the tree shows (its steps' statuses and pending requests), `undefined` while it shows a plan that is not running. */
  shownRun(): RunState | undefined {
    return this.run;
  }

  getTreeItem(node: PlanTreeNode): vscode.TreeItem {
    const item = planTreeItem(node);
    // Rows are told apart per plan: another plan's step S3 is a new row, so the row selected in the last plan is not
    // selected in this one (the view's keys act on the selection).
    if (this.showing === 'plan' && this.plan !== undefined) item.id = `${this.plan.id}/${node.id}`;
    return item;
  }

  getChildren(node?: PlanTreeNode): PlanTreeNode[] {
    return node ? node.children : this.nodes;
  }

  getParent(node: PlanTreeNode): PlanTreeNode | undefined {
    return this.nodes.find((candidate) => candidate.children.includes(node));
  }

  dispose(): void {
    this.changed.dispose();
  }

  private show(state: RunState): void {
    // A run shows: no review's Cancel goes back past it.
    this.previous = undefined;
    this.run = state;
    if (state.plan) this.plan = state.plan;
    this.showing = 'plan';
    this.render();
  }

  private render(): void {
    // The run shown was cut off by a reload, or cancelled: Resume run in the view's title, where the run is, since the
    // notification offering it goes after a few seconds (a newcomer missed it).
    // So is one cancelled while its repair plan was asked (`awaitsRepair`).
    const stopped = this.run !== undefined && (this.run.status === 'interrupted' || this.run.status === 'cancelled' || awaitsRepair(this.run));
    const resumable = this.showing === 'plan' && stopped;
    if (resumable !== this.resumableShown) {
      this.resumableShown = resumable;
      void vscode.commands.executeCommand('setContext', 'taskPlanner.shownRunResumable', resumable);
    }
    const session = this.session ? sessionTreeModel(this.session) : [];
    const undone = this.run !== undefined && this.undone?.runId === this.run.runId ? this.undone.steps : undefined;
    const steps = this.plan ? planTreeModel(this.plan, this.layout, this.run, this.nodeCache, undone) : [];
    const task = steps.length > 0 && this.folder !== undefined ? [folderNode(this.folder), ...steps] : steps;
    const next = this.showing === 'session' ? (session.length > 0 ? session : task) : task.length > 0 ? task : session;
    const change = diffTrees(this.nodes, next);
    // Another plan of the same shape (a second request planned alike) is new rows all the same: their ids name the plan,
    // so no row selected in the last one stays selected. And the view's title (the request, the run's status) follows
    // what is shown even when no row changed.
    const identity = `${this.showing}:${this.plan?.id ?? ''}:${this.shownDescription() ?? ''}`;
    if (change.kind === 'structure' || identity !== this.renderedIdentity) {
      this.nodes = next;
      this.renderedIdentity = identity;
      this.changed.fire(undefined);
      return;
    }
    if (change.changed.length === 0) return;
    // Same shape: update the existing node objects in place so VS Code keeps their identity.
    const shown = indexTree(this.nodes);
    const refreshed = change.changed.map((node) => {
      const existing = shown.get(node.id)!;
      Object.assign(existing, { ...node, children: existing.children });
      return existing;
    });
    this.changed.fire(refreshed);
  }
}

/** What the Plan view showed, and what it showed before that (`PlanTreeProvider.reviewEnded`). */
interface ShownBefore {
  plan: Plan | undefined;
  run: RunState | undefined;
  held: { runId: string | undefined } | undefined;
  showing: 'plan' | 'session';
  previous: ShownBefore | undefined;
}

/** `shown` without what showed plan `planId` not run: a review that ended is not put back by a later one's Cancel. */
function withoutPlan(shown: ShownBefore | undefined, planId: string): ShownBefore | undefined {
  if (!shown) return undefined;
  const previous = withoutPlan(shown.previous, planId);
  if (shown.run === undefined && shown.showing === 'plan' && shown.plan?.id === planId) return previous;
  return previous === shown.previous ? shown : { ...shown, previous };
}

/** The row naming the workspace folder of the plan (a window of several folders). */
function folderNode(name: string): PlanTreeNode {
  const shown = visibleControls(capText(name, 80));
  const description = vscode.l10n.t('workspace folder');
  return {
    id: 'folder',
    label: shown,
    description,
    tooltip: vscode.l10n.t('The plan runs in the workspace folder {0}, and only there.', shown),
    accessibilityLabel: spokenRow(shown, description),
    icon: 'root-folder',
    contextValue: 'workspaceFolder',
    children: [],
  };
}
