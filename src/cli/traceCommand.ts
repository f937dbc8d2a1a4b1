import { exportRunTraces, loadRunTrace } from '../core/trace/exportRunTrace';
import type { RunStore } from '../core/runStorePorts';
import { traceTree } from '../core/trace/traceTree';
import { createFileRunStore } from '../node/fileRunStore';
import type * as OtlpTraceExporter from '../node/otlpTraceExporter';
import { otlpTracesUrl, shownTraceUrl } from '../core/trace/otlpTracesUrl';
import { errorMessage } from '../shared/errorMessage';
import { type CliIo, noRunStart, runsDirectory, UsageError } from './cliIo';
import { writeOutputFile } from './outputFile';

declare const TASK_PLANNER_VERSION: string | undefined;

/** Where a run's trace goes: `--trace-endpoint URL` (nothing is sent without it) and `--trace-content`. */
export interface CliTraceOptions {
  traceEndpoint?: string | undefined;
  /** Include the objective, titles, step inputs and results (off: none of them leave the machine). */
  traceContent?: boolean;
  /** The environment the CLI was started with, secrets included: its OpenTelemetry headers go with the trace (`otlpHeadersFrom`). */
  env: Readonly<Record<string, string | undefined>>;
}

/** The OTLP/HTTP traces URL of `--trace-endpoint`, checked before anything runs; `undefined` without one. */
export function traceUrl(options: CliTraceOptions): string | undefined {
  if (options.traceEndpoint === undefined || options.traceEndpoint.trim() === '') return undefined;
  const checked = otlpTracesUrl(options.traceEndpoint);
  if ('problem' in checked) throw new UsageError(`--trace-endpoint: ${checked.problem}`);
  return checked.url;
}

/**
 * Sends the traces of `runIds` (a run and its repair runs) to `--trace-endpoint` when one is
 * given; a failure to send is a warning on stderr, never the run's failure.
 */
export async function sendRunTraces(store: RunStore, runIds: readonly string[], options: CliTraceOptions, io: CliIo): Promise<void> {
  const url = traceUrl(options);
  if (url === undefined) return;
  try {
    // The OpenTelemetry SDK is loaded only to send: loading it took a fifth of every start-up of the CLI.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an import would be run at every start
    const { createOtlpTraceExporter, otlpHeadersFrom } = require('../node/otlpTraceExporter') as typeof OtlpTraceExporter;
    // Taken out of this process's environment at start (a command could read them there): given to the exporter instead.
    const headers = otlpHeadersFrom(options.env);
    await exportRunTraces(store, runIds, createOtlpTraceExporter(url, version(), headers), { content: options.traceContent === true });
    io.err(`Trace sent to ${shownTraceUrl(url)}.`);
  } catch (error) {
    io.err(`warning: ${errorMessage(error)}`);
  }
}

/**
 * `trace <runId> [--trace FILE] [--trace-endpoint URL]`: the run's trace from its journal as
 * a timed tree on stdout (run → step attempts → model and tool calls), as JSON lines (one
 * span a line) in FILE, and sent to the endpoint when given. The tree stays on the user's
 * screen, so it shows the plan's own step ids and agent and tool names; what is written
 * (FILE, `--json`) or sent is meant to be shipped, so it holds them, and content, only with
 * `--trace-content` (neutral names such as `step S1` otherwise).
 */
export async function traceCommand(
  runId: string,
  workspace: string,
  options: CliTraceOptions & { file: string | undefined; json: boolean },
  io: CliIo,
): Promise<number> {
  const url = traceUrl(options);
  const store = createFileRunStore(runsDirectory(workspace));
  const content = { content: options.traceContent === true };
  const spans = await loadRunTrace(store, runId, content);
  if (spans === undefined) throw new UsageError(`No run "${runId}" in ${runsDirectory(workspace)}; list them with "task-planner runs".`);
  // A journal without a run's start has no span; an empty tree and exit 0 said nothing of why.
  if (spans.length === 0) throw new UsageError(`Run "${runId}" has nothing to trace: ${noRunStart}.`);
  const lines = spans.map((span) => JSON.stringify(span));
  if (options.file !== undefined) {
    // Never through a link a repository committed (`trace.jsonl -> ~/.bashrc`, or a folder on the way).
    await writeOutputFile('--trace', options.file, lines.map((line) => `${line}\n`).join(''), [workspace]);
    io.err(`Wrote ${spans.length} spans to ${options.file}.`);
  }
  // Loaded again with the real names for the tree only: a run's journal is the user's own file on this machine.
  const local = options.json || content.content ? spans : ((await loadRunTrace(store, runId, { content: true })) ?? []);
  // What the columns are (a newcomer's trial: "+5 ms  2 ms" unlabelled read as two durations).
  const legend = 'Each line: what ran, when it started (+ from the start of the run), how long it took, how it ended.';
  io.out(options.json ? lines.join('\n') : [legend, ...traceTree(local)].join('\n'));
  if (url !== undefined) await sendRunTraces(store, [runId], options, io);
  return 0;
}

function version(): string {
  return typeof TASK_PLANNER_VERSION === 'string' ? TASK_PLANNER_VERSION : 'development';
}
