import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TraceExporter } from '../core/servicePorts';
import type { TraceSpan } from '../core/trace/traceSpan';
import { shownTraceUrl } from '../core/trace/otlpTracesUrl';
import { createRedactor } from '../core/llm/redactSecrets';
import { capText, textCaps } from '../core/text/capText';

/**
 * The headers the OpenTelemetry environment variables give an OTLP trace export (`OTEL_EXPORTER_OTLP_HEADERS`, then
 * `OTEL_EXPORTER_OTLP_TRACES_HEADERS` over it): `key=value` pairs separated by commas, values percent-decoded, as the
 * SDK reads them from `process.env`. The CLI takes such variables out of its own environment before any work starts (a
 * command it runs could read them there), so it hands them to the exporter itself. `undefined` when neither names any.
 */
export function otlpHeadersFrom(env: Readonly<Record<string, string | undefined>>): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  for (const raw of [env['OTEL_EXPORTER_OTLP_HEADERS'], env['OTEL_EXPORTER_OTLP_TRACES_HEADERS']]) {
    for (const pair of (raw ?? '').split(',')) {
      const at = pair.indexOf('=');
      const name = pair.slice(0, Math.max(at, 0)).trim();
      if (name === '') continue;
      const value = pair.slice(at + 1).trim();
      try {
        headers[name] = decodeURIComponent(value);
      } catch {
        headers[name] = value;
      }
    }
  }
  return Object.keys(headers).length === 0 ? undefined : headers;
}

/** `ExportResultCode.SUCCESS` (of `@opentelemetry/core`, which this package does not depend on by name). */
const exportSucceeded = 0;

/** Spans sent in one request: a run's trace goes in requests of this many, one after the other. */
const spansPerRequest = 512;

/** Limits of one trace's export (the defaults: the CLI waits for it before it exits). */
export interface OtlpExportLimits {
  /** Time limit of the whole export of one run's trace, every request and retry in it, in ms (default 60 000). */
  timeoutMs?: number;
}

/**
 * A `TraceExporter` over the OpenTelemetry JS SDK: each `export` builds the run's spans with their parent links and
 * times through a tracer of its own, collects them as they end, and sends them to `url` over OTLP/HTTP (JSON) in
 * requests of `spansPerRequest`, one after the other (the SDK's span processors send a span a request and refuse the
 * 31st at once: a trace of more spans lost the rest). It rejects when the collector could not be reached, refused them,
 * or took longer than `limits.timeoutMs` in all (a collector answering a byte at a time held the CLI's exit for ever): its
 * connections are then closed. `headers` go with each request, beside those the SDK reads from the environment; their
 * values never appear in the rejection's message (a collector's status line may echo them). Only this adapter imports
 * the SDK.
 */
export function createOtlpTraceExporter(
  url: string,
  version: string,
  headers?: Readonly<Record<string, string>>,
  limits: OtlpExportLimits = {},
): TraceExporter {
  const timeoutMs = limits.timeoutMs ?? 60_000;
  return {
    async export(spans) {
      const agents: (HttpAgent | HttpsAgent)[] = [];
      const exporter = new OTLPTraceExporter({
        url,
        timeoutMillis: Math.min(10_000, timeoutMs),
        ...(headers === undefined ? {} : { headers: { ...headers } }),
        // An agent of this export's own, so that its sockets can be closed when the time is up.
        httpAgentOptions: (protocol: string) => {
          const agent = protocol === 'https:' ? new HttpsAgent({ keepAlive: false }) : new HttpAgent({ keepAlive: false });
          agents.push(agent);
          return agent;
        },
      });
      const ended: ReadableSpan[] = [];
      const provider = new BasicTracerProvider({
        resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'task-planner', [ATTR_SERVICE_VERSION]: version }),
        spanProcessors: [
          {
            onStart: () => undefined,
            onEnd: (span) => void ended.push(span),
            forceFlush: () => Promise.resolve(),
            shutdown: () => Promise.resolve(),
          },
        ],
      });
      const tracer = provider.getTracer('task-planner', version);
      const started = new Map<string, Span>();
      const ordered: [TraceSpan, Span][] = [];
      for (const span of spans) {
        const parent = span.parentId === undefined ? undefined : started.get(span.parentId);
        const context = parent === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, parent);
        const otel = tracer.startSpan(
          span.name,
          { startTime: span.start, attributes: span.attributes, kind: span.kind === 'model' ? SpanKind.CLIENT : SpanKind.INTERNAL },
          context,
        );
        if (span.status !== 'unset') otel.setStatus({ code: span.status === 'ok' ? SpanStatusCode.OK : SpanStatusCode.ERROR });
        started.set(span.id, otel);
        ordered.push([span, otel]);
      }
      for (const [span, otel] of ordered.reverse()) otel.end(span.end);
      let failure: Error | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeUp = new Promise<Error>((resolve) => {
        timer = setTimeout(() => resolve(new Error(`no answer within ${Math.ceil(timeoutMs / 1000)} s`)), timeoutMs);
      });
      try {
        for (let at = 0; at < ended.length && failure === undefined; at += spansPerRequest) {
          const batch = ended.slice(at, at + spansPerRequest);
          const sent = new Promise<Error | undefined>((resolve) =>
            exporter.export(batch, (result) =>
              resolve((result.code as number) === exportSucceeded ? undefined : (result.error ?? new Error('the collector refused it'))),
            ),
          );
          failure = await Promise.race([sent, timeUp]);
        }
      } finally {
        clearTimeout(timer);
        // Closes what is still open (a collector that never finished its answer), so that nothing waits on it.
        for (const agent of agents) agent.destroy();
        await provider.shutdown().catch(() => undefined);
        await exporter.shutdown().catch(() => undefined);
      }
      if (failure === undefined) return;
      // Said with the address as shown: its query may hold the collector's key, and the SDK's message may repeat it; a
      // collector's status line may echo the headers it was sent.
      const shown = shownTraceUrl(url);
      const redact = createRedactor(Object.values(headers ?? {}).flatMap((value) => [value, ...value.split(/\s+/)]).filter((value) => value.length >= 4));
      throw new Error(`The trace could not be sent to ${shown}: ${capText(redact(failure.message.split(url).join(shown)), textCaps.message)}`);
    },
  };
}
