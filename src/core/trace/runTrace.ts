import { foldRunEvents } from '../engine/reduceRunEvent';
import type { RunEvent } from '../engine/runEvents';
import type { Plan } from '../plan/planSchema';
import { capText } from '../text/capText';
import { traceNames } from './traceNames';
import type { TraceSpan } from './traceSpan';

/** The OpenTelemetry GenAI semantic-convention attribute names the trace uses (checked against the package in the tests). */
export const genAiAttributes = {
  operation: 'gen_ai.operation.name',
  requestModel: 'gen_ai.request.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cachedInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  toolName: 'gen_ai.tool.name',
  agentName: 'gen_ai.agent.name',
} as const;

/** Characters of one content attribute (a step's input or result) when content is included. */
export const traceContentChars = 4000;

/**
 * Characters of a span's name and of any other text attribute (a model, tool or agent name, an
 * id): a journal is a file anyone who can write the workspace can write, so none is unbounded.
 */
export const traceNameChars = 200;

const contentAttributes: ReadonlySet<string> = new Set([
  'task_planner.run.objective',
  'task_planner.step.title',
  'task_planner.step.input',
  'task_planner.step.output',
]);

/** What a trace says beyond the run's shape. */
export interface TraceOptions {
  /**
   * Include content: the objective, step titles, inputs and results (each capped at
   * `traceContentChars`), and the plan's own step ids, agent names and every tool name. Off,
   * a span holds the run id, kinds, statuses, model names, token counts, built-in tool names
   * and times, and neutral names (`traceNames`) for steps (`S1`…), agents and other tools:
   * nothing a plan, a model, a tool server, a prompt or a file chose.
   */
  content: boolean;
}

// The agent's progress before each tool call: "turn 3 of 12: write_file" (runStepAgent).
const toolCallProgress = /^turn \d+ of \d+: ([\w.-]+)$/;

const attemptEnds = new Set<RunEvent['type']>(['step_completed', 'step_failed', 'verification_failed', 'step_deferred', 'step_skipped']);
const runEnds = new Set<RunEvent['type']>(['run_completed', 'run_failed', 'run_waiting', 'run_cancelled']);

/**
 * The trace of one run from its journaled events (in `seq` order): a `run` span over the
 * whole journal; a `step` span per attempt (from `step_started` to what ended it, or the
 * run's end); inside it a `model` span per `model_called` (from the step's event before it,
 * with the model and token counts) and a `tool` span per tool call (a tool step's attempt,
 * or an agent's call from its progress line to the step's next event). Span ids and the
 * `task_planner.step.ref` attribute use the step's neutral reference in both modes; its real
 * id (`task_planner.step.id`) only with content. Every name and text attribute is capped
 * (`traceNameChars`; content at `traceContentChars`). Pure.
 */
export function runTrace(events: readonly RunEvent[], options: TraceOptions): TraceSpan[] {
  const first = events[0];
  if (first === undefined) return [];
  const last = events[events.length - 1] ?? first;
  let plan: Plan | undefined = first.type === 'run_started' ? first.plan : undefined;
  const names = traceNames(options.content);
  if (plan !== undefined) names.learnPlan(plan);
  const ended = [...events].reverse().find((event) => runEnds.has(event.type));
  const run: TraceSpan = {
    id: 'run',
    name: `run ${first.runId}`,
    kind: 'run',
    start: first.time,
    end: last.time,
    status: ended?.type === 'run_failed' ? 'error' : ended?.type === 'run_completed' ? 'ok' : 'unset',
    attributes: {
      'task_planner.run.id': first.runId,
      // As every view says it: a run that went through to its end with a step not done is `partial`, not `completed`.
      'task_planner.run.status': ended === undefined ? 'running' : foldRunEvents(events).status,
      ...(plan !== undefined ? { 'task_planner.run.steps': plan.steps.length } : {}),
      ...(options.content && plan !== undefined ? { 'task_planner.run.objective': capText(plan.objective, traceContentChars) } : {}),
    },
  };
  const spans: TraceSpan[] = [run];
  // The open attempt of each step, its open tool call, and the time of its last event.
  const attempts = new Map<string, TraceSpan>();
  // A resumed run starts a step's attempt 1 again: each attempt span keeps an id of its own.
  const ids = new Set<string>();
  const tools = new Map<string, TraceSpan>();
  const lastTime = new Map<string, number>();
  const closeTool = (stepId: string, time: number): void => {
    const tool = tools.get(stepId);
    if (tool !== undefined) tool.end = Math.max(tool.start, time);
    tools.delete(stepId);
  };
  /** Opens the span of attempt `attempt` of step `stepId` (0: a step skipped without one), with its tool call. */
  const stepSpan = (stepId: string, attempt: number, time: number, input?: unknown): TraceSpan => {
    const step = plan?.steps.find((candidate) => candidate.id === stepId);
    const base = `step:${names.stepRef(stepId)}#${attempt}`;
    let id = base;
    for (let again = 2; ids.has(id); again++) id = `${base}.${again}`;
    ids.add(id);
    const span: TraceSpan = {
      id,
      parentId: run.id,
      name: `step ${names.step(stepId)}`,
      kind: 'step',
      start: time,
      end: run.end,
      status: 'unset',
      attributes: {
        'task_planner.step.ref': names.stepRef(stepId),
        ...(options.content ? { 'task_planner.step.id': stepId } : {}),
        'task_planner.step.attempt': attempt,
        ...(step !== undefined ? { 'task_planner.step.kind': step.kind } : {}),
        ...(step?.agent !== undefined ? { [genAiAttributes.operation]: 'invoke_agent', [genAiAttributes.agentName]: names.agent(step.agent) } : {}),
        ...(options.content && step !== undefined ? { 'task_planner.step.title': capText(step.title, traceContentChars) } : {}),
        ...(options.content && input !== undefined ? { 'task_planner.step.input': contentText(input) } : {}),
      },
    };
    spans.push(span);
    if (attempt > 0) attempts.set(stepId, span);
    if (attempt > 0 && step?.tool !== undefined) {
      const tool = toolSpan(span, names.tool(step.tool), time, `${span.id}/tool`);
      tools.set(stepId, tool);
      spans.push(tool);
    }
    return span;
  };
  /** Sets how an attempt ended: its status, outcome, why it was skipped, and with content its result. */
  const endAttempt = (span: TraceSpan, event: RunEvent): void => {
    span.status = event.type === 'step_completed' ? 'ok' : event.type === 'step_failed' || event.type === 'verification_failed' ? 'error' : 'unset';
    span.attributes['task_planner.step.outcome'] = event.type.replace('step_', '');
    // A failure its policy let the run go past is skipped as `failed` (the reducer's `skipCause`), and said so.
    const cause = event.type === 'step_skipped' ? event.cause : event.type === 'step_failed' && event.disposition === 'skip' ? 'failed' : undefined;
    if (cause !== undefined) span.attributes['task_planner.step.skip_cause'] = cause;
    if (options.content && event.type === 'step_completed') span.attributes['task_planner.step.output'] = contentText(event.result);
  };
  for (const event of events) {
    if (event.type === 'replan_completed') {
      plan = event.plan;
      names.learnPlan(plan);
    }
    if (!('stepId' in event)) continue;
    const { stepId } = event;
    const attempt = attempts.get(stepId);
    if (event.type === 'step_skipped' && attempt === undefined) {
      // Skipped without starting (a dependency not done, a critical step's halt): a moment's span, so every step is in the tree.
      const span = stepSpan(stepId, 0, event.time);
      span.end = event.time;
      endAttempt(span, event);
    } else if (event.type === 'step_started') {
      stepSpan(stepId, event.attempt, event.time, event.input);
    } else if (attempt !== undefined && event.type === 'model_called') {
      closeTool(stepId, event.time);
      spans.push({
        id: `${attempt.id}/model@${event.seq}`,
        parentId: attempt.id,
        name: `chat ${event.model}`,
        kind: 'model',
        start: lastTime.get(stepId) ?? attempt.start,
        end: event.time,
        status: 'ok',
        attributes: {
          [genAiAttributes.operation]: 'chat',
          [genAiAttributes.requestModel]: event.model,
          [genAiAttributes.inputTokens]: event.promptTokens,
          [genAiAttributes.outputTokens]: event.completionTokens,
          ...(event.cachedTokens !== undefined ? { [genAiAttributes.cachedInputTokens]: event.cachedTokens } : {}),
          ...(event.costUsd !== undefined ? { 'task_planner.cost_usd': event.costUsd } : {}),
        },
      });
    } else if (attempt !== undefined && event.type === 'step_progress') {
      closeTool(stepId, event.time);
      const name = toolCallProgress.exec(event.message)?.[1];
      if (name !== undefined) {
        const tool = toolSpan(attempt, names.tool(name), event.time, `${attempt.id}/tool@${event.seq}`);
        tools.set(stepId, tool);
        spans.push(tool);
      }
    } else if (attempt !== undefined && attemptEnds.has(event.type)) {
      closeTool(stepId, event.time);
      attempt.end = event.time;
      endAttempt(attempt, event);
      attempts.delete(stepId);
    }
    lastTime.set(stepId, event.time);
  }
  for (const tool of tools.values()) if (tool.end < tool.start) tool.end = tool.start;
  for (const span of spans) {
    span.name = capText(span.name, traceNameChars);
    for (const [name, value] of Object.entries(span.attributes)) {
      if (typeof value === 'string' && !contentAttributes.has(name)) span.attributes[name] = capText(value, traceNameChars);
    }
  }
  return spans;
}

function toolSpan(parent: TraceSpan, name: string, start: number, id: string): TraceSpan {
  return {
    id,
    parentId: parent.id,
    name: `execute_tool ${name}`,
    kind: 'tool',
    start,
    end: parent.end,
    status: 'unset',
    attributes: { [genAiAttributes.operation]: 'execute_tool', [genAiAttributes.toolName]: name },
  };
}

function contentText(value: unknown): string {
  return capText(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''), traceContentChars);
}
