import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { RE2JS } from 're2js';
import { jsRegexToRe2 } from './jsRegexToRe2';
import { schemaCheckCost } from './schemaCheckCost';
import { schemaReferences } from './schemaReferences';
import { capText } from '../text/capText';
import { errorMessage } from '../../shared/errorMessage';

/** Most characters of an output schema's JSON text: a schema is a shape, not data. */
export const maxOutputSchemaChars = 64_000;
/** Deepest nesting of objects and arrays in an output schema. */
export const maxOutputSchemaDepth = 40;
/**
 * Most visits of a subschema a check of one value may take (`schemaCheckCost`): a schema whose references and branches
 * double at each level would take 2^levels, and validation cannot be interrupted.
 */
export const maxSchemaCheckVisits = 1_000_000;
/** Most schema errors named in one diagnosis. */
const maxListedErrors = 5;
/** Longest value shown in a diagnosis ("got …"). */
const maxShownValueChars = 60;

/** Whether a result satisfies a step's output schema; else the diagnosis in words ("result.items: expected array, got string"). */
export type OutputCheck = { ok: true } | { ok: false; diagnosis: string };

// Patterns run on RE2 (linear time), so no pattern of a model-written schema can freeze the host.
// ajv keys compiled patterns by their `toString()`, so each one names its own source.
const re2Engine = Object.assign(
  (pattern: string) => {
    const compiled = RE2JS.compile(jsRegexToRe2(pattern));
    return { test: (text: string) => compiled.test(text), toString: () => `re2:${pattern}` };
  },
  { code: 'taskPlannerRe2' },
);

// Their errors only repeat that a branch failed; the branch's own errors say how.
const combinatorKeywords = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'not']);

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false, logger: false, code: { regExp: re2Engine } });
const compiled = new WeakMap<object, ValidateFunction | string>();

/**
 * Every problem of `schema` as a step's output schema, in words; empty when it is usable.
 * It must be a JSON Schema (draft 2020-12, checked against the meta-schema) of at most
 * `maxOutputSchemaChars` characters and `maxOutputSchemaDepth` levels, whose `$ref`s
 * point inside it (`#…`) and never lead back to themselves without descending into the
 * value (`{"$ref": "#"}` would validate forever), and whose patterns RE2 can run.
 */
export function outputSchemaProblems(schema: Readonly<Record<string, unknown>>): string[] {
  if (depthOf(schema, 0) > maxOutputSchemaDepth) return [`it is nested more than ${maxOutputSchemaDepth} levels deep`];
  let text: string | undefined;
  try {
    text = JSON.stringify(schema);
  } catch (error) {
    return [`it is not JSON (${errorMessage(error)})`];
  }
  if (text === undefined) return ['it is not JSON'];
  if (text.length > maxOutputSchemaChars) return [`it is ${text.length} characters long; at most ${maxOutputSchemaChars} are accepted`];
  if (ajv.validateSchema(schema) !== true) {
    const errors = ajv.errors ?? [];
    const specific = errors.filter((error) => !combinatorKeywords.has(error.keyword));
    const described = (specific.length > 0 ? specific : errors).map((error) => `${schemaPlace(error.instancePath)} ${error.message ?? 'is not valid'}`);
    return [...new Set(described)].slice(0, maxListedErrors);
  }
  const problems = [...referenceProblems(schema)];
  if (problems.length > 0) return problems;
  const validator = compile(schema);
  return typeof validator === 'string' ? [validator] : [];
}

/**
 * Checks `value` (a step's parsed result) against `schema`. A schema with problems (see
 * `outputSchemaProblems`) or one that fails while validating gives a diagnosis saying so,
 * never a pass. The diagnosis names at most five mismatches, each with its place in the
 * result (`result.items[0].name`) and what was found.
 */
export function checkOutput(schema: Readonly<Record<string, unknown>>, value: unknown): OutputCheck {
  const outcome = schemaMismatches(schema, value, 'result');
  if ('unusable' in outcome) return { ok: false, diagnosis: outcome.unusable };
  if (outcome.mismatches.length === 0) return { ok: true };
  const shown = outcome.mismatches.slice(0, maxListedErrors).map((mismatch) => mismatch.message);
  const more = outcome.mismatches.length - shown.length;
  return { ok: false, diagnosis: `The result does not match the output schema: ${shown.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}.` };
}

/** One way a value fails a schema: the keys from the value's root to the place, and the mismatch in words naming that place. */
export interface SchemaMismatch {
  path: string[];
  message: string;
}

/**
 * Every way `value` fails `schema` (empty when it matches), each message naming its place
 * from `root` (`arguments.items[0]`: "expected string, got number"); or, when the schema
 * cannot be used (see `outputSchemaProblems`) or fails while validating, why, as
 * `unusable`. The same validator (RE2 patterns, the same limits) serves output schemas and
 * the input schemas of tools that come with a JSON Schema.
 */
export function schemaMismatches(
  schema: Readonly<Record<string, unknown>>,
  value: unknown,
  root: string,
): { mismatches: SchemaMismatch[] } | { unusable: string } {
  const schemaName = root === 'result' ? "step's output schema" : 'input schema';
  const problems = outputSchemaProblems(schema);
  if (problems.length > 0) return { unusable: `The ${schemaName} cannot be used: ${problems.join('; ')}.` };
  const validator = compile(schema);
  if (typeof validator === 'string') return { unusable: `The ${schemaName} cannot be used: ${validator}.` };
  if (schemaCheckCost(schema, value, maxSchemaCheckVisits) > maxSchemaCheckVisits) {
    return {
      unusable: `The ${schemaName} cannot be used to check this ${root === 'result' ? 'result' : 'call'}: its references and branches multiply to more than ${maxSchemaCheckVisits.toLocaleString('en-US')} checks.`,
    };
  }
  try {
    if (validator(value)) return { mismatches: [] };
  } catch (error) {
    return { unusable: `The ${root} could not be checked against the ${root === 'result' ? 'output schema' : 'input schema'}: ${errorMessage(error)}.` };
  }
  const every = validator.errors ?? [];
  const specific = every.filter((error) => !combinatorKeywords.has(error.keyword));
  const listed = specific.length > 0 ? specific : every;
  return { mismatches: listed.map((error) => ({ path: pathSegments(error.instancePath), message: describeError(error, value, root) })) };
}

function compile(schema: Readonly<Record<string, unknown>>): ValidateFunction | string {
  const known = compiled.get(schema);
  if (known !== undefined) return known;
  let outcome: ValidateFunction | string;
  try {
    outcome = ajv.compile(schema);
    // Compiled schemas are kept by the caller's object (the WeakMap), not by ajv's cache.
    ajv.removeSchema(schema);
  } catch (error) {
    outcome = `it cannot be compiled (${capText(errorMessage(error), 300)})`;
  }
  compiled.set(schema, outcome);
  return outcome;
}

function depthOf(value: unknown, depth: number): number {
  if (depth > maxOutputSchemaDepth) return depth;
  if (value === null || typeof value !== 'object') return depth;
  let deepest = depth + 1;
  for (const member of Object.values(value)) deepest = Math.max(deepest, depthOf(member, depth + 1));
  return deepest;
}

// Keywords whose subschemas apply to the same value (not to a member or an item of it).
const sameValueKeywords = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas'];

/** `$ref`s that leave the schema, lead nowhere, or loop without descending into the value. */
function referenceProblems(root: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  const subschemas: { node: Record<string, unknown>; place: string }[] = [];
  const visit = (node: unknown, place: string): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, `${place}/${index}`));
      return;
    }
    const record = node as Record<string, unknown>;
    subschemas.push({ node: record, place });
    for (const [key, member] of Object.entries(record)) visit(member, `${place}/${key}`);
  };
  visit(root, '#');
  const resolve = schemaReferences(root);
  for (const { node, place } of subschemas) {
    for (const key of ['$ref', '$dynamicRef']) {
      const reference = node[key];
      if (typeof reference !== 'string') continue;
      const shownReference = JSON.stringify(capText(reference, 80));
      if (!reference.startsWith('#')) {
        problems.push(`${schemaPlace(place)}: ${key} ${shownReference} points outside the schema; only references inside it ("#/…") are supported`);
      } else if (resolve(reference) === undefined) problems.push(`${schemaPlace(place)}: ${key} ${shownReference} points to nothing in the schema`);
    }
  }
  if (problems.length > 0) return problems;
  // A loop of references through subschemas of the same value never ends.
  const state = new Map<object, 'open' | 'done'>();
  const sameValueTargets = (node: Record<string, unknown>): unknown[] => {
    const targets: unknown[] = [];
    for (const key of ['$ref', '$dynamicRef']) {
      const reference = node[key];
      if (typeof reference === 'string') targets.push(resolve(reference));
    }
    for (const key of sameValueKeywords) {
      const member = node[key];
      if (Array.isArray(member)) targets.push(...(member as unknown[]));
      else if (key === 'dependentSchemas' && member !== null && typeof member === 'object') targets.push(...Object.values(member as Record<string, unknown>));
      else targets.push(member);
    }
    return targets.filter((target) => target !== null && typeof target === 'object' && !Array.isArray(target));
  };
  const loops = (node: Record<string, unknown>): boolean => {
    const seen = state.get(node);
    if (seen === 'open') return true;
    if (seen === 'done') return false;
    state.set(node, 'open');
    for (const target of sameValueTargets(node)) if (loops(target as Record<string, unknown>)) return true;
    state.set(node, 'done');
    return false;
  };
  for (const { node, place } of subschemas) {
    if (loops(node)) return [`${schemaPlace(place)}: its $ref leads back to itself without looking into the value, so checking would never end`];
  }
  return [];
}

function schemaPlace(pointer: string): string {
  const place = pointer.replace(/^#/, '');
  return place === '' ? 'the schema' : `the schema at ${capText(place, 120)}`;
}

/** One ajv error in words: its place in the result and what was expected and found. */
function describeError(error: ErrorObject, value: unknown, root: string): string {
  const segments = pathSegments(error.instancePath);
  const place = placeName(root, segments);
  const found = valueAt(value, segments);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `${place}: expected ${String(params.type)}, got ${kindOf(found)}`;
    case 'required':
      return `${placeName(root, [...segments, String(params.missingProperty)])}: missing (required)`;
    case 'additionalProperties':
      return `${place}: unexpected field ${JSON.stringify(capText(String(params.additionalProperty), maxShownValueChars))}`;
    case 'enum':
      return `${place}: expected one of ${capText((params.allowedValues as unknown[]).map((allowed) => JSON.stringify(allowed)).join(', '), 200)}, got ${shown(found)}`;
    case 'const':
      return `${place}: expected ${capText(JSON.stringify(params.allowedValue) ?? 'a constant', 200)}, got ${shown(found)}`;
    default:
      return `${place}: ${error.message ?? `fails "${error.keyword}"`}${found === undefined || (found !== null && typeof found === 'object') ? '' : `, got ${shown(found)}`}`;
  }
}

function pathSegments(instancePath: string): string[] {
  return instancePath === '' ? [] : instancePath.slice(1).split('/').map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function placeName(root: string, segments: readonly string[]): string {
  let place = root;
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) place += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) place += `.${segment}`;
    else place += `[${JSON.stringify(capText(segment, maxShownValueChars))}]`;
  }
  return capText(place, 200);
}

function valueAt(value: unknown, segments: readonly string[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value !== null && typeof value === 'object') return kindOf(value);
  return JSON.stringify(typeof value === 'string' ? capText(value, maxShownValueChars) : value);
}
