import { oneLine } from '../text/oneLine';
import { genAiAttributes } from './runTrace';
import type { TraceSpan } from './traceSpan';
import { skipCauseWords, stepStatusLabels } from '../../shared/stepStatusLabels';
import { skipCauses } from '../../shared/vocabulary';

/**
 * A trace as a timed tree, one line a span: indented under its parent, its start after the
 * run's start and its duration, its status when not ok, and for a model call the model and
 * tokens (cached ones too). Children follow their parent in start order. Pure; each name
 * on one bounded line (`oneLine`), the caller's output boundary escapes controls.
 */
export function traceTree(spans: readonly TraceSpan[]): string[] {
  const root = spans.find((span) => span.parentId === undefined);
  if (root === undefined) return [];
  const children = new Map<string, TraceSpan[]>();
  for (const span of spans) {
    if (span.parentId === undefined) continue;
    const list = children.get(span.parentId) ?? [];
    list.push(span);
    children.set(span.parentId, list);
  }
  const lines: string[] = [];
  const visit = (span: TraceSpan, depth: number): void => {
    const at = `+${seconds(span.start - root.start)}`;
    lines.push(`${'  '.repeat(depth)}${oneLine(span.name, 120)}  ${at}  ${seconds(span.end - span.start)}${details(span)}`);
    for (const child of [...(children.get(span.id) ?? [])].sort((a, b) => a.start - b.start)) visit(child, depth + 1);
  };
  visit(root, 0);
  return lines;
}

function details(span: TraceSpan): string {
  const parts: string[] = [];
  const attributes = span.attributes;
  // A run's and a step's own words say how they ended ("failed"): "error" before them said it twice.
  if (span.status === 'error' && span.kind !== 'run' && span.kind !== 'step') parts.push('error');
  if (span.kind === 'run') parts.push(String(attributes['task_planner.run.status']));
  if (span.kind === 'step' && attributes['task_planner.step.outcome'] !== undefined) parts.push(outcomeWords(attributes));
  if (span.kind === 'model') {
    const cached = attributes[genAiAttributes.cachedInputTokens];
    parts.push(
      `${attributes[genAiAttributes.inputTokens]} in${cached !== undefined ? ` (${cached} cached)` : ''}, ${attributes[genAiAttributes.outputTokens]} out`,
    );
  }
  return parts.length === 0 ? '' : `  ${parts.join(', ')}`;
}

/** How a step's attempt ended, in the words every view uses: "rejected by you", "failed (did not stop the run)", "not needed". */
function outcomeWords(attributes: TraceSpan['attributes']): string {
  const outcome = String(attributes['task_planner.step.outcome']);
  const cause = attributes['task_planner.step.skip_cause'];
  const known = skipCauses.find((skip) => skip === cause);
  if (known === 'failed') return skipCauseWords.failed.label;
  if (outcome !== 'skipped' || known === undefined) return outcome;
  // A bare "skipped" keeps its cause beside it: the trace has no reason to show after it.
  const { label } = skipCauseWords[known];
  return label === stepStatusLabels.skipped ? `${label} (${known})` : label;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.max(0, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}
