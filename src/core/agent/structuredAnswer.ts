import { chatWithJsonSchema, StructuredOutputError } from '../llm/chatStructured';
import type { LlmMessage, LlmUsage } from '../llm/llmTypes';
import { checkOutput } from '../tools/outputSchema';
import type { LlmClient } from '../servicePorts';
import { capText, textCaps } from '../text/capText';

/** What asking for a step's result as structured output needs. */
export interface StructuredAnswerOptions {
  llm: LlmClient;
  /** The conversation so far; the request for the JSON result follows it. */
  messages: LlmMessage[];
  /** The step's output schema (already checked by `validatePlan`). */
  outputSchema: Readonly<Record<string, unknown>>;
  signal: AbortSignal;
  output(text: string): void;
}

/**
 * The step's result as structured output: the parsed JSON value (which may still not match
 * the schema: the engine checks it and says how), or, when no reply was JSON even after the
 * repair round, the problem in words.
 */
export type StructuredAnswer = ({ kind: 'value'; value: unknown } | { kind: 'unreadable'; problem: string }) & { usage: LlmUsage; costUsd?: number };

/** The request that ends an agent's conversation when its step has an output schema. */
export const structuredAnswerRequest =
  'Now give the result of this step as ONE JSON value that matches the JSON Schema of the response, and nothing else: no prose, no code fence, no tool call. Fill it from what you found and did above.';

/**
 * Asks `llm` for the step's result as JSON matching `outputSchema` (docs/architecture.md
 * §4): `response_format: json_schema` where the server takes it, else JSON mode or the
 * schema in the prompt (`chatWithJsonSchema`), with one repair round that sends the schema
 * errors back. Replies longer than `textCaps.result` characters are not parsed.
 */
export async function structuredAnswer(options: StructuredAnswerOptions): Promise<StructuredAnswer> {
  try {
    const reply = await chatWithJsonSchema(
      options.llm,
      {
        messages: options.messages,
        signal: options.signal,
        schemaName: 'step_result',
        maxReplyChars: textCaps.result,
        check: (value) => {
          const checked = checkOutput(options.outputSchema, value);
          return checked.ok ? [] : [checked.diagnosis];
        },
        onDelta: (delta) => {
          if (delta.kind === 'retry') options.output(`\n(the result did not match the output schema; asking again: ${delta.reason})\n`);
        },
      },
      options.outputSchema,
    );
    options.output(`\n${capText(JSON.stringify(reply.value) ?? '', 2_000)}\n`);
    return { kind: 'value', value: reply.value, usage: reply.usage, ...(reply.costUsd === undefined ? {} : { costUsd: reply.costUsd }) };
  } catch (error) {
    if (!(error instanceof StructuredOutputError)) throw error;
    const usage = error.responses.reduce<LlmUsage>(
      (sum, response) => ({
        promptTokens: sum.promptTokens + response.usage.promptTokens,
        completionTokens: sum.completionTokens + response.usage.completionTokens,
      }),
      { promptTokens: 0, completionTokens: 0 },
    );
    return { kind: 'unreadable', problem: capText(`The step's result is not JSON: ${error.problems.join(' ')}`, textCaps.message), usage };
  }
}
