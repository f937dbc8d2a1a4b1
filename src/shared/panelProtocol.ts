import { z } from 'zod';
import type { PanelViewModel, RunStepView, RunView, TimelineBar } from './panelViewModel';
import { contextTagsSchema, newStepSchema, stepPatchSchema } from './stepEditSchema';
import { maxStepIdLength } from './vocabulary';
import { visibleControls } from './visibleCharacters';

/** The fields of a run's view a delta replaces whole when they changed: all but the per-step lists. */
export type RunViewField = Exclude<keyof RunView, 'steps' | 'timeline'>;

/**
 * What changed in a run's view between two versions: the fields that changed (whole), the
 * optional ones that are gone, and the steps and timeline bars that changed, by position.
 * The steps keep their number and order (a plan that changed is sent whole); the bars end
 * at `timeline.length`. Applied to the earlier view it gives exactly the later one.
 */
export interface RunViewChanges {
  set: Partial<Pick<RunView, RunViewField>>;
  unset: RunViewField[];
  steps: { index: number; step: RunStepView }[];
  timeline: { spanMs: number; lanes: number; length: number; bars: { index: number; bar: TimelineBar }[] };
}

/**
 * What the extension host posts to the plan panel's webview, by message type: one entry
 * per message (`HostToWebviewMessage` and the webview's handler map derive from it).
 * Snapshots are complete and versioned; a large run's later versions may come as deltas of
 * the version before; output travels as numbered chunks of one run.
 */
export interface HostMessageBodies {
  /** Host, after `ready`, on `resyncSnapshot` and after every change of the plan or run: the whole view model. */
  snapshot: { model: PanelViewModel };
  /**
   * Host, while a large run goes on, instead of a snapshot: version `version` as the changes
   * from version `base` of the same session. It applies only to exactly that version; the
   * webview asks for `resyncSnapshot` otherwise.
   */
  runDelta: { session: string; base: number; version: number; changes: RunViewChanges };
  /** Host, while a step streams text: the next chunk; `seq` counts chunks of the run from 1. */
  output: { runId: string; seq: number; stepId: string; text: string };
  /** Host, answering `resyncOutput` or at `ready`: every step's output tail, up to chunk `seq`. */
  outputResync: { runId: string; seq: number; tails: Record<string, string> };
  /**
   * Host, when an action was refused or did something worth saying (e.g. an edit broke a dependency). `untilEdit`: it is
   * about the plan version under review (a refusal, how the planner's answer was read), so a later version takes it away.
   */
  notice: { id: number; level: 'info' | 'error'; text: string; untilEdit: boolean };
  /**
   * Host, after an `edit` that named a `request`: whether it was taken (sent after the snapshot showing it). The form
   * that sent it closes only when it was: a refused one keeps what was typed, whatever snapshot came meanwhile.
   */
  editResult: { request: number; taken: boolean };
}

/** The message types the host may post. */
export type HostMessageType = keyof HostMessageBodies;

/** A message the host posts of type `K` (any type by default). */
export type HostMessage<K extends HostMessageType = HostMessageType> = { [T in K]: { type: T } & HostMessageBodies[T] }[K];

/** Any message the extension host posts to the plan panel's webview. */
export type HostToWebviewMessage = HostMessage;

/**
 * One handler per type of the messages `M`, called with the message and a `context`:
 * a message type without a handler is a compile error where the map is written.
 */
export type MessageHandlers<M extends { type: string }, Context = void, Result = void> = {
  [K in M['type']]: (message: Extract<M, { type: K }>, context: Context) => Result;
};

const stepIdField = z.string().min(1).max(maxStepIdLength);

/**
 * The plan under review a review action was made on, as the webview showed it: the host acts only while that very
 * version is still the one under review, and refuses (saying so) an action that arrives after it changed.
 */
export const shownPlanSchema = z.object({ id: z.string().min(1).max(10_000), version: z.number().int().min(0) }).strict();

/** The plan a review action was made on. */
export type ShownPlan = z.infer<typeof shownPlanSchema>;

/** The number a form gives its edit: the host's `editResult` names it. */
const editRequestField = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** The run a run action was made on: the host acts only while the panel still shows that run. */
const shownRunField = z.string().min(1).max(200);

/** One plan edit the webview asks for; the host applies it with `editPlan`. */
export const panelEditSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('updateStep'), stepId: stepIdField, patch: stepPatchSchema }).strict(),
  z.object({ type: z.literal('moveStep'), stepId: stepIdField, toIndex: z.number().int().min(0) }).strict(),
  z.object({ type: z.literal('skipStep'), stepId: stepIdField }).strict(),
  z.object({ type: z.literal('unskipStep'), stepId: stepIdField }).strict(),
  z.object({ type: z.literal('addStep'), step: newStepSchema, index: z.number().int().min(0).optional() }).strict(),
  z.object({ type: z.literal('removeStep'), stepId: stepIdField }).strict(),
  z.object({ type: z.literal('makeManual'), stepIds: z.array(stepIdField).min(1).max(10_000) }).strict(),
  z.object({ type: z.literal('setContextTags'), tags: contextTagsSchema }).strict(),
]);

/** A validated plan edit from the webview. */
export type PanelEdit = z.infer<typeof panelEditSchema>;

/**
 * Messages the webview posts to the host, as zod schemas: the host validates every message
 * on arrival with `parseWebviewMessage` and ignores (and logs) anything else.
 */
export const webviewToHostSchema = z.discriminatedUnion('type', [
  /** Webview, once loaded (also after being hidden and shown): send me the current snapshot; `version` is the one it restored. */
  z.object({ type: z.literal('ready'), session: z.string().max(100).optional(), version: z.number().int().min(0).optional() }).strict(),
  /** Webview, when the user edits, moves, skips, adds or removes a step in review; a form names a `request` the host answers (`editResult`). */
  z.object({ type: z.literal('edit'), plan: shownPlanSchema, edit: panelEditSchema, request: editRequestField.optional() }).strict(),
  /** Webview, when the user asks the planner for a new version with feedback. */
  z.object({ type: z.literal('regenerate'), plan: shownPlanSchema, feedback: z.string().trim().min(1, 'Say what to change.').max(4_000) }).strict(),
  /** Webview, when the user asks to set up a language model (the review needs one for some steps). */
  z.object({ type: z.literal('setUpModel') }).strict(),
  /** Webview, when the user brings back an earlier version of the plan under review: it becomes the next version. */
  z.object({ type: z.literal('restoreVersion'), plan: shownPlanSchema, version: z.number().int().min(1) }).strict(),
  /** Webview, when the user picks a version of the plan under review in the list to look at (read only); no `version`: the plan itself again. */
  z.object({ type: z.literal('viewVersion'), plan: shownPlanSchema, version: z.number().int().min(1).optional() }).strict(),
  /**
   * Webview, when the user starts the reviewed plan: `version` is the snapshot the user saw it in. The host starts
   * only the plan that snapshot showed, never one edited, regenerated or replaced since.
   */
  z.object({ type: z.literal('start'), version: z.number().int().min(0), stopAtEstimate: z.boolean().optional() }).strict(),
  /** Webview, when the user cancels the review of `plan` (closing the panel): never a run shown since. */
  z.object({ type: z.literal('cancelReview'), plan: shownPlanSchema }).strict(),
  /** Webview, when the user cancels the run `runId` it shows going on: never another run, nor a review shown since. */
  z.object({ type: z.literal('cancelRun'), runId: shownRunField }).strict(),
  /** Webview, when the user wants to answer a pending approval or question in the editor. */
  z.object({ type: z.literal('openApproval'), runId: shownRunField, stepId: stepIdField }).strict(),
  /** Webview, when the user marks a step that is theirs to do Done (`done: true`) or Failed; the host asks for the note or reason. */
  z.object({ type: z.literal('markManualStep'), runId: shownRunField, stepId: stepIdField, done: z.boolean() }).strict(),
  /** Webview, when the user opens a file the run changed. */
  z.object({ type: z.literal('openFile'), path: z.string().min(1).max(1_000) }).strict(),
  /** Webview, when the user asks to restore every file the run changed. */
  z.object({ type: z.literal('undoRun'), runId: shownRunField }).strict(),
  /** Webview, when the user resumes the run shown, stopped by a reload or a cancel: finished steps are not redone. */
  z.object({ type: z.literal('resumeRun'), runId: shownRunField }).strict(),
  /** Webview, when the user takes back one step of the finished run and the later steps that depend on it or changed the same files. */
  z.object({ type: z.literal('undoFromHere'), runId: shownRunField, stepId: stepIdField }).strict(),
  /** Webview, when the user runs a step of the ended run and the later steps depending on it again, keeping the other results (a new run). */
  z.object({ type: z.literal('runFromHere'), runId: shownRunField, stepId: stepIdField }).strict(),
  /** Webview, when the user saves the plan shown as a `*.plan.json` file (the host asks where). */
  z.object({ type: z.literal('savePlanFile') }).strict(),
  /** Webview, when the user exports the plan shown, with its run's statuses, as a Markdown checklist. */
  z.object({ type: z.literal('exportMarkdown') }).strict(),
  /** Webview, when it missed an output chunk: send every step's tail again. */
  z.object({ type: z.literal('resyncOutput'), runId: z.string().min(1).max(200), afterSeq: z.number().int().min(0) }).strict(),
  /** Webview, when a run delta does not apply to the version it shows (`version`, 0 for none): send the whole snapshot. */
  z.object({ type: z.literal('resyncSnapshot'), version: z.number().int().min(0) }).strict(),
  /** Webview, after rendering a snapshot: which version it shows and how long rendering took (for tests and tracing). */
  z.object({ type: z.literal('rendered'), version: z.number().int().min(0), ms: z.number().min(0) }).strict(),
]);

/** A message from the webview, after validation. */
export type WebviewToHostMessage = z.infer<typeof webviewToHostSchema>;

/** The message types the webview may send. */
export type WebviewMessageType = WebviewToHostMessage['type'];

/** A message from the webview of type `K`, after validation. */
export type WebviewMessage<K extends WebviewMessageType> = Extract<WebviewToHostMessage, { type: K }>;

/** Validates a raw message from the webview: the message, or a readable reason it was refused. */
export function parseWebviewMessage(raw: unknown): { ok: true; message: WebviewToHostMessage } | { ok: false; error: string } {
  const parsed = webviewToHostSchema.safeParse(raw);
  if (parsed.success) return { ok: true, message: parsed.data };
  // The reason quotes the stranger's own keys ("Unrecognized key: …") and is logged: a key of a megabyte, an escape
  // sequence or a line break in one reached the log whole (attack). A few issues, on one line, controls shown, bounded.
  const issues = parsed.error.issues;
  const listed = issues.slice(0, refusalIssues).map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`);
  if (issues.length > refusalIssues) listed.push(`and ${issues.length - refusalIssues} more`);
  return { ok: false, error: boundedReason(listed.join('; ')) };
}

/** Most issues the reason a webview message was refused lists. */
const refusalIssues = 5;
/** Most characters of the reason a webview message was refused. */
export const refusalReasonLimit = 1_000;

function boundedReason(text: string): string {
  const cut = (value: string): string => (value.length > refusalReasonLimit ? `${value.slice(0, refusalReasonLimit - 1)}…` : value);
  return cut(visibleControls(cut(text)).replace(/\n/g, '\\n'));
}

/** Most characters of one step's output either side keeps: the tail, never the whole transcript. */
export const outputTailLimit = 16_000;

/** `text` appended to `tail`, cut to the last `outputTailLimit` characters. */
export function appendTail(tail: string, text: string): string {
  const joined = tail + text;
  return joined.length > outputTailLimit ? joined.slice(joined.length - outputTailLimit) : joined;
}
