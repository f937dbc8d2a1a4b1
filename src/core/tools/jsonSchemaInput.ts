import { z } from 'zod';
import { schemaMismatches } from './outputSchema';

/** What a tool described by a JSON Schema takes: an arguments object checked against that schema. */
export interface JsonSchemaInput {
  /** Validates arguments: an object, then the schema's own rules, each mismatch at its path (so references filled in at run time are recognised). */
  inputSchema: z.ZodType<Record<string, unknown>>;
  /** The schema as models see it (`Tool.parameters`), without `$schema`. */
  parameters: Record<string, unknown>;
  /** Why the schema cannot be used to validate, in words; then only "an object" is checked and the tool's owner validates the rest. */
  unusable?: string;
}

/**
 * The input of a tool that comes with a JSON Schema (an MCP server's tool, another
 * extension's tool). The schema is read as draft 2020-12 whatever its `$schema` says (the
 * drafts these tools use agree on everything but tuples), validated with the same RE2-backed
 * validator and limits as output schemas. A schema that cannot be used does not make the
 * tool unusable: its owner still validates what it receives.
 */
export function jsonSchemaInput(schema: Readonly<Record<string, unknown>>): JsonSchemaInput {
  const { $schema: _ignored, ...parameters } = schema;
  const probe = schemaMismatches(parameters, {}, 'arguments');
  const unusable = 'unusable' in probe ? probe.unusable : undefined;
  const inputSchema = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    if (unusable !== undefined) return;
    const outcome = schemaMismatches(parameters, value, 'arguments');
    if ('unusable' in outcome) {
      ctx.addIssue({ code: 'custom', message: outcome.unusable });
      return;
    }
    for (const mismatch of outcome.mismatches) ctx.addIssue({ code: 'custom', path: mismatch.path, message: mismatch.message });
  });
  return { inputSchema, parameters, ...(unusable !== undefined ? { unusable } : {}) };
}
