/** An attribute value of a span, as OpenTelemetry takes it. */
export type SpanAttributeValue = string | number | boolean;

/**
 * One span of a run's trace. `id` is unique within the trace and `parentId` names the
 * span it nests in (none for the run's own span); times are milliseconds since the epoch,
 * `start <= end`. The order of a trace is its spans' start order, a parent before its children.
 */
export interface TraceSpan {
  id: string;
  parentId?: string;
  name: string;
  kind: 'run' | 'step' | 'model' | 'tool';
  start: number;
  end: number;
  status: 'ok' | 'error' | 'unset';
  attributes: Record<string, SpanAttributeValue>;
}
