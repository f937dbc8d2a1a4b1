import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TraceExporter } from '../core/servicePorts';
import type { TraceSpan } from '../core/trace/traceSpan';
import { shownTraceUrl } from '../core/trace/otlpTracesUrl';

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

/**
 * A `TraceExporter` over the OpenTelemetry JS SDK: each `export` builds the run's spans with
 * their parent links and times through a tracer of its own and sends them to `url` over
 * OTLP/HTTP (JSON), then shuts its provider down; it rejects when the collector could not
 * be reached or refused them. `headers` go with each request, beside those the SDK reads from the environment. Only this
 * adapter imports the SDK.
 */
export function createOtlpTraceExporter(url: string, version: string, headers?: Readonly<Record<string, string>>): TraceExporter {
  return {
    async export(spans) {
      const failures: Error[] = [];
      const exporter = new OTLPTraceExporter({ url, timeoutMillis: 10_000, ...(headers === undefined ? {} : { headers: { ...headers } }) });
      const original = exporter.export.bind(exporter);
      // The processor logs a failed export and moves on; the run's host is told instead.
      exporter.export = (items, done) =>
        original(items, (result) => {
          if (result.error !== undefined) failures.push(result.error);
          done(result);
        });
      const provider = new BasicTracerProvider({
        resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'task-planner', [ATTR_SERVICE_VERSION]: version }),
        spanProcessors: [new SimpleSpanProcessor(exporter)],
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
      try {
        await provider.forceFlush();
      } catch (error) {
        failures.push(error instanceof Error ? error : new Error(String(error)));
      }
      await provider.shutdown().catch(() => undefined);
      const failure = failures[0];
      // Said with the address as shown: its query may hold the collector's key, and the SDK's message may repeat it.
      const shown = shownTraceUrl(url);
      if (failure !== undefined) throw new Error(`The trace could not be sent to ${shown}: ${failure.message.split(url).join(shown)}`);
    },
  };
}
