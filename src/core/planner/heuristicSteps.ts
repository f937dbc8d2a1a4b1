import type { Attachment, Step } from '../plan/planSchema';
import type { StepClassification } from './classifyStepText';
import { toolCallChecks, workChecks } from './heuristicChecks';
import { pathsInText } from '../text/pathsInText';
import type { ToolCall } from './recognizeToolAction';

/** How the steps of one part are made. */
export interface StepMaking {
  /** True when a language model runs agent steps; else a person does the work (`manual`). */
  model: boolean;
  /** What the request carries, shown on every step that is not a tool call. */
  attachments: readonly Attachment[];
  /** The part's last command is followed by a fix of what it reports: its step returns the output instead of failing. */
  reported: boolean;
}

const maxTitleLength = 80;
const urlPattern = /\bhttps?:\/\/[^\s<>"'`)\]]+[^\s<>"'`)\].,;:!?]/gi;
const imageExtension = /\.(png|jpe?g|gif|webp|svg|bmp)(\?|#|$)/i;

/** The built-in tools that change the file their `path` names. */
const changesFiles: ReadonlySet<string> = new Set(['write_file', 'edit_file', 'delete_file', 'create_directory']);

/**
 * The steps of one part of a request and the ids a later step that follows it waits for
 * (docs/architecture.md §5): a tool step per call (in order when each needs the one before),
 * with the checks that show it did its work and the file it changes; else one step of work
 * (`manual`, or with a model an agent's), or a question (`clarification`), with the URLs the
 * part mentions and the request's attachments, the checks its text implies, and, for an
 * agent that may write, the files it names.
 */
export function stepsOf(
  part: string,
  classified: StepClassification,
  dependsOn: string[],
  nextId: () => string,
  making: StepMaking,
): { steps: Step[]; exits: string[] } {
  // A person's step is never retried: they say it is done, or why it cannot be. A command whose output a fix
  // reads is not retried either: it ran, and what it printed is the result.
  const retried = classified.flaky && !making.reported && (classified.kind === 'tool' || making.model);
  const common = { onFailure: retried ? 'retry' : 'stop', maxAttempts: retried ? 3 : 1, critical: true, onVerificationFailure: 'stop', input: part } as const;
  if (classified.kind === 'tool') {
    const steps: Step[] = [];
    for (const [index, call] of classified.calls.entries()) {
      const id = nextId();
      const after = classified.inOrder && steps.length > 0 ? [steps[steps.length - 1]!.id] : dependsOn;
      const reported = making.reported && index === classified.calls.length - 1 && call.tool === 'run_command';
      const step: Step = {
        id,
        title: classified.calls.length === 1 ? titleOf(part) : titleOfCall(call),
        kind: 'tool',
        dependsOn: [...after],
        tool: call.tool,
        args: reported ? { ...call.args, allowFailure: true } : call.args,
        ...common,
      };
      const checks = toolCallChecks(call);
      if (checks.length > 0) step.checks = checks;
      const path = call.args['path'];
      if (changesFiles.has(call.tool) && typeof path === 'string') step.writes = [path];
      steps.push(step);
    }
    return { steps, exits: classified.inOrder ? [steps[steps.length - 1]!.id] : steps.map((step) => step.id) };
  }
  const attachments = mergeAttachments(urlsIn(part).map(toAttachment), making.attachments);
  const id = nextId();
  const step: Step = { id, title: titleOf(part), kind: classified.kind === 'clarification' ? 'clarification' : 'manual', dependsOn: [...dependsOn], ...common };
  if (making.model && classified.kind === 'work') {
    step.kind = 'agent';
    step.agent = classified.agent;
    // An agent that may write is scoped to the files its text names; naming none, it runs alone among the writers.
    const named = pathsInText(part);
    if (classified.agent !== 'researcher' && named.length > 0) step.writes = named;
  }
  if (attachments.length > 0) step.attachments = attachments;
  const checks = classified.kind === 'work' ? workChecks(part) : [];
  if (checks.length > 0) step.checks = checks;
  return { steps: [step], exits: [id] };
}

/** The title of one of several calls a part made: "Run npm test", "Read src/a.ts", "Delete b.js". */
function titleOfCall(call: ToolCall): string {
  const what =
    call.tool === 'run_command'
      ? `Run ${(call.args['argv'] as string[]).join(' ')}`
      : `${call.tool === 'delete_file' ? 'Delete' : 'Read'} ${String(call.args['path'])}`;
  return what.length <= maxTitleLength ? what : `${what.slice(0, maxTitleLength - 1)}…`;
}

function mergeAttachments(...lists: (readonly Attachment[])[]): Attachment[] {
  const byRef = new Map<string, Attachment>();
  for (const attachment of lists.flat()) if (!byRef.has(attachment.ref)) byRef.set(attachment.ref, { ...attachment });
  return [...byRef.values()];
}

function urlsIn(text: string): string[] {
  return [...new Set(text.match(urlPattern) ?? [])];
}

function toAttachment(url: string): Attachment {
  return { kind: imageExtension.test(url) ? 'image' : 'link', ref: url };
}

function titleOf(part: string): string {
  const firstLine = part.split('\n')[0]!.replace(/\s+/g, ' ').trim().replace(/[.;:]$/, '');
  return firstLine.length <= maxTitleLength ? firstLine : `${firstLine.slice(0, maxTitleLength - 1)}…`;
}
