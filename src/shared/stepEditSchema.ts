import { z } from 'zod';
import {
  actingCharacter,
  checkKinds,
  failurePolicies,
  isReservedStepId,
  maxListedNameLength,
  maxListedNames,
  maxChecksPerStep,
  maxStepIdLength,
  maxWritePatternLength,
  maxWritePatterns,
  stepIdPattern,
  stepKinds,
} from './vocabulary';
import { boundsAdvice, valueOutOfBounds, type ValueBounds } from './valueBounds';

/** Longest step title the panel accepts. */
export const maxStepTitleLength = 160;
/** Longest input, predicate or argument text the panel accepts. */
export const maxStepTextLength = 20_000;

const stepId = z
  .string()
  .trim()
  .min(1, 'Give the step an id.')
  .max(maxStepIdLength, `Keep the id under ${maxStepIdLength + 1} characters.`)
  .regex(stepIdPattern, 'Use letters, digits, "_", ".", ":" or "-" in ids.')
  .refine((id) => !isReservedStepId(id), 'This id is reserved; choose another id.');
/**
 * A step's title as the panel takes it: trimmed, 1 to `maxStepTitleLength` characters, no control or direction
 * characters (the planner shows those escaped; a title that reorders itself would show another step than the one that runs).
 */
const stepTitle = z
  .string()
  .trim()
  .min(1, 'Give the step a title.')
  .max(maxStepTitleLength, `Keep the title under ${maxStepTitleLength + 1} characters.`)
  .refine((title) => !actingCharacter.test(title), 'Leave control and text-direction characters out of the title.');
/** Deepest nesting of a tool step's arguments the panel accepts (an `edits` list's items are 3 levels deep). */
export const maxArgumentsDepth = 32;
/**
 * Bounds of a tool step's arguments, wherever they come from (the panel, a plan file, a model's plan): a file's whole
 * content (at most 5 MiB written) fits, with room to spare.
 */
export const stepArgumentsBounds: ValueBounds = { depth: maxArgumentsDepth, entries: 10_000, chars: 6_000_000 };
/** Bounds of one check from the panel: a handful of fields, a few short texts and lists. */
const checkBounds: ValueBounds = { depth: 4, entries: 1_000, chars: 50_000 };

/**
 * A value of names (a step's arguments, a check) within `bounds`, refused otherwise with what to do: a hostile page's
 * value nested a thousand deep passed the schema and then broke every snapshot of the plan (no view could be built).
 */
function boundedRecord(bounds: ValueBounds, what: string) {
  // The advice is worded when a value passes a bound, not when this module loads: its number formatting was a tenth of
  // the command line's start-up (17 ms of ICU, measured).
  return z.record(z.string(), z.unknown()).superRefine((value, context) => {
    const passed = valueOutOfBounds(value, bounds);
    if (passed !== undefined) context.addIssue({ code: 'custom', message: boundsAdvice(bounds, what)[passed] });
  });
}
const argumentsRecord = boundedRecord(stepArgumentsBounds, 'the arguments');
const optionalText = z.string().max(maxStepTextLength, `Keep it under ${maxStepTextLength} characters.`).optional();
/** A list of names (a step's skills, the plan's topics): at most `maxListedNames`, none blank or longer than `maxListedNameLength`. */
function namesList(name: 'skill' | 'topic') {
  return z
    .array(
      z
        .string()
        .trim()
        .min(1, `Leave no ${name} blank.`)
        .max(maxListedNameLength, `Keep each ${name} name under ${maxListedNameLength + 1} characters.`)
        .refine((text) => !actingCharacter.test(text), `Leave control characters out of ${name} names.`),
    )
    .max(maxListedNames, `Name at most ${maxListedNames} ${name}s.`);
}
const skillNames = namesList('skill').optional();

/**
 * `pattern` trimmed, without a leading `./`, doubled or trailing slashes: the form the
 * core's `normalizeScopePattern` gives, so what the panel saves is what the scheduler matches.
 */
export function normalizeWritePattern(pattern: string): string {
  return pattern.trim().replace(/^(\.\/)+/, '').replace(/\/{2,}/g, '/').replace(/\/$/, '');
}

/**
 * One entry of a step's `writes` as the panel takes it, normalized: a path or glob relative
 * to the workspace folder and inside it (not absolute, no `..`, `/` between folders), at
 * most `maxWritePatternLength` characters, no control or direction characters. No message
 * repeats what was typed: a direction character in it would reorder the message.
 */
const writePattern = z
  .string()
  .overwrite(normalizeWritePattern)
  .refine((pattern) => !actingCharacter.test(pattern), 'Leave control and text-direction characters out of paths.')
  .min(1, 'Leave no path blank.')
  .max(maxWritePatternLength, `Keep each path or glob under ${maxWritePatternLength + 1} characters.`)
  .refine((pattern) => !pattern.includes('\\'), 'Separate folders with "/", as in src/app.ts.')
  .refine(
    (pattern) => !pattern.startsWith('/') && !/^[A-Za-z]:/.test(pattern),
    'Give paths relative to the workspace folder, such as src/app.ts, not absolute ones.',
  )
  .refine((pattern) => !pattern.split('/').includes('..'), 'Keep paths inside the workspace folder: leave ".." out.')
  .refine((pattern) => pattern !== '.', 'To let the step change any file, leave the list empty.');

/**
 * The files a step may change (`writes`) as the panel sets them: at most `maxWritePatterns`
 * paths or globs, each as `writePattern` takes it. The host reads an empty list as "no
 * limit" and removes the step's `writes`.
 */
export const writePatternsSchema = z.array(writePattern).max(maxWritePatterns, `Name at most ${maxWritePatterns} paths or globs.`);

/**
 * A step's checks as the panel sets them: at most `maxChecksPerStep`, each an object with a
 * known `kind`; the host checks each kind's fields with the plan schema (a refusal names
 * them). An empty list removes the step's checks.
 */
export const checksSchema = z
  .array(
    boundedRecord(checkBounds, 'each check')
      .refine((check) => (checkKinds as readonly unknown[]).includes(check['kind']), `Give each check a kind: ${checkKinds.join(', ')}.`),
    { error: 'Checks are a list, such as - kind: command' },
  )
  .max(maxChecksPerStep, `At most ${maxChecksPerStep} checks.`);

/** The plan's topics (`contextTags`) as the panel sets them; an empty list removes them. */
export const contextTagsSchema = namesList('topic');

/**
 * The fields of a step the panel's edit form may change, validated in the webview before
 * sending and again in the host on arrival (then `editPlan` checks the whole plan).
 */
export const stepPatchSchema = z
  .object({
    title: stepTitle,
    kind: z.enum(stepKinds),
    dependsOn: z.array(stepId).max(500),
    tool: z.string().trim().min(1, 'Choose a tool.').max(100).optional(),
    args: argumentsRecord.optional(),
    agent: z.string().trim().min(1).max(100).optional(),
    input: optionalText,
    skills: skillNames,
    writes: writePatternsSchema,
    onFailure: z.enum(failurePolicies),
    maxAttempts: z.number().int('Attempts must be a whole number.').min(1, 'At least one attempt.').max(20, 'At most 20 attempts.'),
    critical: z.boolean(),
    verification: optionalText,
    checks: checksSchema,
    onVerificationFailure: z.enum(failurePolicies),
    when: optionalText,
  })
  .partial()
  .strict()
  .refine((patch) => patch.kind !== 'tool' || patch.tool !== undefined, { message: 'A tool step needs a tool.', path: ['tool'] })
  .refine((patch) => patch.onFailure !== 'retry' || patch.maxAttempts === undefined || patch.maxAttempts >= 2, {
    message: 'Retry needs at least 2 attempts: the first try and one retry.',
    path: ['maxAttempts'],
  });

/** A validated step patch. */
export type StepPatchInput = z.infer<typeof stepPatchSchema>;

/** A new step from the panel's Add form: an id and a kind, everything else optional. */
export const newStepSchema = z
  .object({
    id: stepId,
    kind: z.enum(stepKinds),
    title: stepTitle,
    dependsOn: z.array(stepId).max(500).optional(),
    tool: z.string().trim().min(1).max(100).optional(),
    args: argumentsRecord.optional(),
    agent: z.string().trim().min(1).max(100).optional(),
    input: optionalText,
    skills: skillNames,
    writes: writePatternsSchema.optional(),
    checks: checksSchema.optional(),
  })
  .strict()
  .refine((step) => step.kind !== 'tool' || step.tool !== undefined, { message: 'A tool step needs a tool.', path: ['tool'] });

/** A validated new step. */
export type NewStepInput = z.infer<typeof newStepSchema>;

/** Zod issues as one message per field path, e.g. `{ title: 'Give the step a title.' }`. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || 'step';
    errors[key] ??= issue.message;
  }
  return errors;
}
