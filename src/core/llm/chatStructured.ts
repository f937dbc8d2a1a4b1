import { z } from 'zod';
import type { LlmClient } from '../servicePorts';
import { isLlmError } from './llmError';
import type { LlmChatRequest, LlmChatResponse, LlmMessage, LlmResponseFormat, LlmUsage } from './llmTypes';
import { parseJsonLoose } from '../text/parseJsonLoose';
import { oneLine } from '../text/oneLine';
import { visibleControls } from '../../shared/visibleCharacters';

/** How the structure was asked for: the provider's JSON Schema mode, its JSON mode, or the prompt alone. */
export type StructuredMode = 'json_schema' | 'json_object' | 'text';

/** A chat request whose reply must match a schema. */
export interface StructuredRequest<T> extends Omit<LlmChatRequest, 'responseSchema'> {
  /** Name sent with the JSON Schema (letters, digits, `_`, `-`; default `response`). */
  schemaName?: string;
  /**
   * Ask the provider for strict schema adherence (default false: strict mode rejects
   * optional properties and open records, which most of our schemas have).
   */
  strict?: boolean;
  /**
   * Checks beyond the schema (e.g. plan validation). Problems trigger the repair round like
   * schema errors do; problems left after it are returned in `remainingProblems`.
   */
  check?: (value: T) => string[];
  /** Longest reply read, in characters: a longer one is a problem (repair round) and is not parsed. Default: any length. */
  maxReplyChars?: number;
  /**
   * The text of a reply already received for `messages` (a planner that wrote the plan at the
   * end of its investigation): read first instead of asking; only the repair round is asked
   * for when it has problems. Not in `responses` (it was paid for elsewhere).
   */
  firstReply?: string;
}

/** A reply that matched the schema, with what it took to get it. */
export interface StructuredResult<T> {
  value: T;
  mode: StructuredMode;
  /** Whether the repair round was needed. */
  repaired: boolean;
  /** `check` problems still present after the repair round (empty when none or no check). */
  remainingProblems: string[];
  /** Every successful chat response, in order. */
  responses: LlmChatResponse[];
  /** Summed over `responses`. */
  usage: LlmUsage;
  /** Summed over `responses`; `undefined` when any response had no known cost. */
  costUsd?: number;
}

/** The reply did not match the schema even after the repair round. */
export class StructuredOutputError extends Error {
  override readonly name = 'StructuredOutputError';

  constructor(
    message: string,
    readonly problems: string[],
    readonly lastText: string,
    readonly responses: LlmChatResponse[],
  ) {
    super(message);
  }
}

const workingMode = new WeakMap<LlmClient, StructuredMode>();
const modes: readonly StructuredMode[] = ['json_schema', 'json_object', 'text'];
const maxListedProblems = 20;

/**
 * Asks `client` for a reply matching `schema` (docs/architecture.md §5): first as `response_format:
 * json_schema` with `z.toJSONSchema(schema)`; when the server rejects that with a 400, as
 * `json_object`, then as plain text with the schema in the prompt (the mode that worked is
 * remembered per client). The reply is parsed tolerantly (code fences, prose, trailing
 * commas repaired) and validated; on failure ONE repair round sends the errors back. A
 * streamed consumer gets a `retry` delta before the repair round. Throws
 * `StructuredOutputError` when the reply still does not match, and the client's errors as
 * they are.
 */
export async function chatStructured<T>(client: LlmClient, request: StructuredRequest<T>, schema: z.ZodType<T>): Promise<StructuredResult<T>> {
  const { $schema: _ignored, ...jsonSchema } = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
  return chatShaped(client, request, { jsonSchema, read: (value) => zodRead(schema, value) });
}

/**
 * `chatStructured` for a JSON Schema given as it is (a plan's output schema): the reply
 * must be JSON; whether it matches the schema is for `request.check`, whose problems get
 * the repair round and are otherwise returned in `remainingProblems` with the value.
 */
export async function chatWithJsonSchema(
  client: LlmClient,
  request: StructuredRequest<unknown>,
  jsonSchema: Readonly<Record<string, unknown>>,
): Promise<StructuredResult<unknown>> {
  const { $schema: _ignored, ...sent } = jsonSchema;
  return chatShaped(client, request, { jsonSchema: sent, read: (value) => ({ ok: true, value }) });
}

/** The JSON Schema a reply is asked for with, and how a parsed reply is read into a value or problems. */
interface ReplyShape<T> {
  jsonSchema: Record<string, unknown>;
  read(value: unknown): { ok: true; value: T } | { ok: false; problems: string[] };
}

function zodRead<T>(schema: z.ZodType<T>, value: unknown): { ok: true; value: T } | { ok: false; problems: string[] } {
  const checked = schema.safeParse(value);
  if (checked.success) return { ok: true, value: checked.data };
  return { ok: false, problems: checked.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`) };
}

async function chatShaped<T>(client: LlmClient, request: StructuredRequest<T>, shape: ReplyShape<T>): Promise<StructuredResult<T>> {
  const { schemaName = 'response', strict = false, check, maxReplyChars = Number.POSITIVE_INFINITY, firstReply, ...chatRequest } = request;
  const jsonSchema = shape.jsonSchema;
  const responses: LlmChatResponse[] = [];
  let modeIndex = modes.indexOf(workingMode.get(client) ?? 'json_schema');

  const ask = async (messages: LlmMessage[]): Promise<LlmChatResponse> => {
    for (;;) {
      const mode = modes[modeIndex] ?? 'text';
      try {
        const response = await client.chat({
          ...chatRequest,
          messages: withSchemaInstructions(messages, mode, jsonSchema),
          ...formatFor(mode, schemaName, jsonSchema, strict),
        });
        workingMode.set(client, mode);
        responses.push(response);
        return response;
      } catch (error: unknown) {
        if (isLlmError(error) && error.kind === 'bad_request' && mode !== 'text') {
          modeIndex++;
          continue;
        }
        throw error;
      }
    }
  };

  const first = firstReply === undefined ? await ask(chatRequest.messages) : { text: firstReply };
  let outcome = interpret(first.text, shape, check, maxReplyChars);
  let repaired = false;
  if (outcome.problems.length > 0) {
    repaired = true;
    chatRequest.onDelta?.({ kind: 'retry', attempt: 2, reason: 'the reply did not match the schema; asking for a repair' });
    const repair: LlmMessage[] = [
      ...chatRequest.messages,
      { role: 'assistant', content: first.text },
      { role: 'user', content: repairPrompt(outcome.problems) },
    ];
    const second = await ask(repair);
    const retried = interpret(second.text, shape, check, maxReplyChars);
    if (retried.value !== undefined) outcome = retried;
    else if (outcome.value === undefined) {
      const words = inWords(second.text);
      throw new StructuredOutputError(
        words === undefined
          ? `The model's reply did not match the expected structure, even after a repair round: ${listProblems(retried.problems)}`
          : `The model answered in words instead of the structured reply it was asked for, even after a repair round: "${words}". Rephrase the request, or try another model.`,
        retried.problems,
        second.text,
        responses,
      );
    }
    // Otherwise the repair broke a structure the first reply had: keep the first reply and its problems.
  }
  if (outcome.value === undefined) throw new Error('unreachable: a reply without problems has a value');
  const usage = responses.reduce<LlmUsage>(
    (sum, response) => ({
      promptTokens: sum.promptTokens + response.usage.promptTokens,
      completionTokens: sum.completionTokens + response.usage.completionTokens,
    }),
    { promptTokens: 0, completionTokens: 0 },
  );
  const costs = responses.map((response) => response.costUsd);
  const costUsd = costs.every((cost): cost is number => cost !== undefined) ? costs.reduce((sum, cost) => sum + cost, 0) : undefined;
  return {
    value: outcome.value,
    mode: modes[modeIndex] ?? 'text',
    repaired,
    remainingProblems: outcome.problems,
    responses,
    usage,
    ...(costUsd === undefined ? {} : { costUsd }),
  };
}

/**
 * A reply that is prose, not JSON (a model declining: "I cannot book a meeting room…"), on one line with its controls
 * shown, at most 300 characters; `undefined` for a reply that is JSON of the wrong shape. A newcomer saw only "expected
 * object, received string" and never what the model said.
 */
function inWords(text: string): string | undefined {
  const parsed = parseJsonLoose(text);
  // A reply with a line that opens as JSON or a code fence is JSON of the wrong shape, though loose parsing finds JSON in
  // prose too; a sentence before it ("Here is the plan:") does not make it words (a newcomer's local model wrote one).
  const prose = parsed.ok && typeof parsed.value === 'string' ? parsed.value : /(?:^|\n)[ \t]*(?:[{[]|```)/.test(text) ? undefined : text;
  return prose === undefined || prose.trim() === '' ? undefined : visibleControls(oneLine(prose.trim(), 300));
}

/** Schema problems leave `value` undefined; `check` problems keep it. */
function interpret<T>(
  text: string,
  shape: ReplyShape<T>,
  check: ((value: T) => string[]) | undefined,
  maxChars: number,
): { value: T | undefined; problems: string[] } {
  if (text.length > maxChars) {
    return {
      value: undefined,
      problems: [`The reply is ${text.length} characters long; at most ${maxChars} are read. Reply with the JSON value alone, shorter.`],
    };
  }
  const parsed = parseJsonLoose(text);
  if (!parsed.ok) return { value: undefined, problems: [parsed.error] };
  const read = shape.read(parsed.value);
  if (!read.ok) return { value: undefined, problems: read.problems };
  return { value: read.value, problems: check ? check(read.value) : [] };
}

function formatFor(mode: StructuredMode, name: string, schema: Record<string, unknown>, strict: boolean): { responseSchema?: LlmResponseFormat } {
  if (mode === 'json_schema') return { responseSchema: { type: 'json_schema', name, schema, strict } };
  if (mode === 'json_object') return { responseSchema: { type: 'json_object' } };
  return {};
}

/** Without schema enforcement by the provider, the schema goes into the prompt (JSON mode also needs the word "JSON"). */
function withSchemaInstructions(messages: LlmMessage[], mode: StructuredMode, schema: Record<string, unknown>): LlmMessage[] {
  if (mode === 'json_schema') return messages;
  const instruction: LlmMessage = {
    role: 'system',
    content: `Reply with a single JSON value and nothing else (no prose, no code fence). It must match this JSON Schema:\n${JSON.stringify(schema)}`,
  };
  return [...messages, instruction];
}

function repairPrompt(problems: string[]): string {
  return `Your reply could not be used: ${listProblems(problems)}\nReply again with the complete corrected JSON only, fixing every problem listed.`;
}

function listProblems(problems: string[]): string {
  const shown = problems.slice(0, maxListedProblems).map((problem) => `\n- ${problem}`).join('');
  return problems.length > maxListedProblems ? `${shown}\n- … and ${problems.length - maxListedProblems} more` : shown;
}
