import {
  actingCharacter,
  failurePolicies,
  isReservedStepId,
  maxListedNameLength,
  maxListedNames,
  maxStepIdLength,
  maxWritePatternLength,
  maxWritePatterns,
  stepKinds,
  unprintableInStepId,
  type FailurePolicy,
  type StepKind,
} from '../../shared/vocabulary';
import { normalizeScopePattern } from '../workspace/writeScope';
import { attachmentSchema, maxBasedOnPerStep, maxBasisEntryLength, withStepDefaults, type Attachment, type Step } from './planSchema';
import { normalizeChecks } from './normalizeChecks';
import { maxModelNameLength } from '../llm/modelRoles';
import { dependencyList, describeRaw, firstString, isRecord } from './rawValues';
import { withoutTickRequest } from './originTick';
import { visibleDirection } from '../text/visibleDirection';
import { closestName } from '../../shared/closestName';
import { visibleControls } from '../../shared/visibleCharacters';

/** One element of a raw step list, with what it inherits from an enclosing phase. */
export interface RawStepEntry {
  value: unknown;
  inheritedDeps?: string[];
  phaseId?: string;
}

// Every kind by its own name, and the other words planners use for some.
const kindAliases: Readonly<Record<string, StepKind>> = {
  ...Object.fromEntries(stepKinds.map((kind) => [kind, kind])),
  gate: 'synthesis_gate',
  synthesis: 'synthesis_gate',
  compress: 'synthesis_gate',
  summarize: 'synthesis_gate',
  review: 'human_review',
  approval: 'human_review',
  question: 'clarification',
  ask: 'clarification',
  human_task: 'manual',
};
// Words models write for "a step" without saying which kind ("type": "task"): the step's fields decide, as with no type.
const genericKinds = new Set(['task', 'step', 'action', 'work', 'subtask']);

/** Every raw field a step may use; anything else is reported as ignored. */
const knownStepKeys = new Set([
  'id', 'step_id', 'name', 'title', 'input', 'query', 'action', 'description',
  'dependsOn', 'depends_on', 'requires', 'after', 'dependencies',
  'type', 'kind', 'tool', 'args', 'arguments', 'params', 'parameters', 'agent', 'worker',
  'on_failure', 'onFailure', 'max_retries', 'retries', 'maxAttempts', 'max_attempts', 'critical',
  'verification', 'verify', 'on_verification_failure', 'onVerificationFailure', 'when', 'condition',
  'requiresApproval', 'requires_approval', 'skipped', 'timeoutMs', 'timeout_ms', 'attachments',
  'checks', 'outputSchema', 'output_schema', 'review', 'skills', 'writes', 'basedOn', 'based_on', 'model',
]);

/** The fields docs/plan-files.md documents, as a "did you mean" names them. */
const documentedStepKeys = [
  'id', 'title', 'input', 'kind', 'tool', 'args', 'agent', 'dependsOn', 'onFailure', 'maxAttempts', 'critical', 'verification',
  'onVerificationFailure', 'when', 'requiresApproval', 'skipped', 'timeoutMs', 'attachments', 'checks', 'outputSchema', 'review',
  'skills', 'writes', 'basedOn', 'model',
];

const maxTitleLength = 120;

/** The ids a plan's steps are written with, and what each id normalizing replaced became (so references follow it). */
export interface StepNames {
  taken: ReadonlySet<string>;
  renamed: Map<string, string>;
}

/** The id `entry` is written with, if any (before any check). */
export function writtenStepId(entry: RawStepEntry): string | undefined {
  return isRecord(entry.value) ? firstString(entry.value.id, entry.value.step_id, entry.value.name) : undefined;
}

/**
 * Normalizes one raw step (docs/architecture.md §3 field aliases and defaults). `index` is the position in
 * the flattened list and gives missing ids (`S001`, …; `S001-2` when a step is written with that id, among `names.taken`);
 * an id replaced is recorded in `names.renamed`. Returns `undefined`, with a
 * warning, for entries that are neither text nor objects.
 */
export function normalizeStep(entry: RawStepEntry, index: number, warnings: string[], names?: StepNames): Step | undefined {
  const fallbackId = freeId(`S${String(index + 1).padStart(3, '0')}`, names?.taken);
  const raw = entry.value;
  if (typeof raw === 'string') {
    if (raw.trim() === '') {
      warnings.push(`Step ${index + 1} is blank; it was dropped.`);
      return undefined;
    }
    return withStepDefaults({
      id: fallbackId,
      title: visibleDirection(titleFrom(raw)),
      kind: 'agent',
      agent: 'default',
      input: plannedInput(raw, fallbackId, warnings),
      dependsOn: [...(entry.inheritedDeps ?? [])],
    });
  }
  if (!isRecord(raw)) {
    warnings.push(`Step ${index + 1} is neither text nor an object (${raw === null ? 'null' : describeRaw(raw)}); it was dropped.`);
    return undefined;
  }
  const written = writtenStepId(entry);
  let id = written ?? fallbackId;
  if (id.length > maxStepIdLength) {
    warnings.push(`Step id "${id.slice(0, 20)}…" is longer than ${maxStepIdLength} characters; it became "${fallbackId}".`);
    id = fallbackId;
  }
  if (isReservedStepId(id)) {
    warnings.push(`Step id "${id}" is reserved; it became "${fallbackId}".`);
    id = fallbackId;
  }
  // An id is printed wherever its step is named (the CLI's progress, a command to paste): a line break in it forged a
  // line of the CLI's progress, an invisible character would make two ids look alike (an outside attack).
  if (unprintableInStepId.test(id)) {
    warnings.push(`Step id ${visibleControls(JSON.stringify(id))} holds a line break, a control or an invisible character; it became "${fallbackId}".`);
    id = fallbackId;
  }
  if (written !== undefined && id !== written) names?.renamed.set(written, id);
  const input = firstString(raw.input, raw.query, raw.action, raw.description, raw.title);
  const title = firstString(raw.title, raw.name !== id ? raw.name : undefined) ?? (input ? titleFrom(input) : id);
  const ownDeps = dependencyList(raw.dependsOn ?? raw.depends_on ?? raw.requires ?? raw.after ?? raw.dependencies);
  const tool = firstString(raw.tool);
  const kind = kindOf(raw, tool, id, warnings);
  const args = [raw.args, raw.arguments, raw.params, raw.parameters].find(isRecord);
  const agent = firstString(raw.agent, raw.worker);

  const step: Step = {
    id,
    title: visibleDirection(title.trim()),
    kind,
    dependsOn: [...new Set([...(entry.inheritedDeps ?? []), ...ownDeps])],
    onFailure: policyOf(raw.onFailure ?? raw.on_failure, id, 'onFailure', warnings),
    maxAttempts: attemptsOf(raw.maxAttempts ?? raw.max_attempts ?? raw.max_retries ?? raw.retries, id, warnings),
    critical: !(raw.critical === false || raw.critical === 'false'),
    onVerificationFailure: policyOf(raw.onVerificationFailure ?? raw.on_verification_failure, id, 'onVerificationFailure', warnings),
  };
  // Retry with one attempt would never retry: the engine gives it 2 anyway (`attemptLimit`), and the plan shows it.
  if (step.onFailure === 'retry' && step.maxAttempts < 2) step.maxAttempts = 2;
  if (tool !== undefined) step.tool = tool;
  if (args !== undefined) step.args = args;
  if (kind === 'agent') step.agent = agent ?? 'default';
  else if (agent !== undefined) step.agent = agent;
  if (input !== undefined) step.input = plannedInput(input, id, warnings);
  const verification = firstString(raw.verification, raw.verify);
  if (verification !== undefined) step.verification = verification;
  const when = firstString(raw.when, raw.condition);
  if (when !== undefined) step.when = when;
  const approval = raw.requiresApproval ?? raw.requires_approval;
  if (typeof approval === 'boolean') step.requiresApproval = approval;
  if (raw.skipped === true) step.skipped = true;
  const timeout = raw.timeoutMs ?? raw.timeout_ms;
  if (typeof timeout === 'number' && Number.isInteger(timeout) && timeout > 0) step.timeoutMs = timeout;
  const attachments = attachmentsOf(raw.attachments, id, warnings);
  if (attachments.length > 0) step.attachments = attachments;
  const checks = normalizeChecks(raw.checks, id, warnings);
  if (checks.length > 0) step.checks = checks;
  const outputSchema = outputSchemaOf(raw.outputSchema ?? raw.output_schema, id, warnings);
  if (outputSchema !== undefined) step.outputSchema = outputSchema;
  if (raw.review === true || raw.review === 'true') step.review = true;
  else if (raw.review === false || raw.review === 'false') step.review = false;

  const skills = wordsOf(raw.skills, id, 'skills', warnings);
  if (skills.length > 0) step.skills = skills;
  const writes = writePatternsOf(raw.writes, id, warnings);
  if (writes !== undefined) step.writes = writes;
  const basedOn = writePatternsOf(raw.basedOn ?? raw.based_on, id, warnings, basedOnField);
  if (basedOn !== undefined && basedOn.length > 0) step.basedOn = basedOn;
  if (typeof raw.model === 'string' && raw.model.trim() !== '') step.model = raw.model.trim().slice(0, maxModelNameLength);
  else if (raw.model !== undefined) warnings.push(`Step "${id}": ignored "model", which is not a model's name.`);

  for (const key of Object.keys(raw)) {
    if (knownStepKeys.has(key)) continue;
    // A newcomer's "dependson", "onfailure", "maxAttempt" were ignored without a word of what was meant.
    const meant = closestName(key, documentedStepKeys, key.length <= 5 ? 1 : 2);
    warnings.push(`Step "${id}": ignored unknown field "${key}"${meant === undefined ? '.' : `: did you mean "${meant}"?`}`);
  }
  return step;
}

/**
 * A step's input as a plan file or a model wrote it, without an origin line asking to tick a checkbox (`withoutTickRequest`):
 * only an import the user asked to tick does that; a warning says it was dropped.
 */
function plannedInput(input: string, id: string, warnings: string[]): string {
  const kept = withoutTickRequest(input);
  if (kept.file !== undefined) {
    warnings.push(
      `Step ${id} asks to tick its checkbox in ${visibleControls(kept.file.slice(0, 200))}; only "task-planner run <tasks file> --tick" (or the editor's taskFiles.tickCheckboxes setting) ticks checkboxes, so the request was dropped.`,
    );
  }
  return kept.input;
}

function kindOf(raw: Record<string, unknown>, tool: string | undefined, id: string, warnings: string[]): StepKind {
  const declared = firstString(raw.kind, raw.type)?.trim().toLowerCase();
  const alias = declared === undefined || !Object.hasOwn(kindAliases, declared) ? undefined : kindAliases[declared];
  if (alias === 'tool' && tool === undefined) {
    warnings.push(`Step "${id}" says it is a tool step but names no tool; it became an agent step.`);
    return 'agent';
  }
  if (alias !== undefined && alias !== 'agent') return alias;
  if (declared !== undefined && alias === undefined && !genericKinds.has(declared)) {
    // Said as the docs name the field ("kind"), with the kind meant: a newcomer's "manuel" ran as an agent step needing a model.
    // A kind so close is taken as meant when no tool decides (with a model, "manuel" became an agent that "did" the user's task).
    const meant = closestName(declared, stepKinds, 2);
    const taken = tool === undefined && meant !== undefined && meant !== 'tool' ? meant : undefined;
    const hint = meant === undefined ? '' : `did you mean "${meant}"? `;
    const treated = taken !== undefined ? `a ${taken}` : tool ? 'a tool' : 'an agent';
    warnings.push(`Step "${id}": unknown kind "${declared}" (${hint}the kinds are ${stepKinds.join(', ')}); treated as ${treated} step.`);
    if (taken !== undefined) return taken as StepKind;
  }
  return tool !== undefined && alias !== 'agent' ? 'tool' : 'agent';
}

function policyOf(value: unknown, id: string, field: string, warnings: string[]): FailurePolicy {
  if (value === undefined || value === null) return 'stop';
  const policy = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (policy !== undefined && (failurePolicies as readonly string[]).includes(policy)) return policy as FailurePolicy;
  warnings.push(`Step "${id}": ${field} "${describeRaw(value)}" is not one of ${failurePolicies.join(', ')}; using "stop".`);
  return 'stop';
}

function attemptsOf(value: unknown, id: string, warnings: string[]): number {
  if (value === undefined || value === null) return 1;
  const count = typeof value === 'string' ? Number(value) : value;
  if (typeof count === 'number' && Number.isInteger(count) && count >= 1) return Math.min(count, 20);
  warnings.push(`Step "${id}": attempt count "${describeRaw(value)}" is not a positive whole number; using 1.`);
  return 1;
}

/** An output schema as an object; models sometimes write it as JSON text. */
function outputSchemaOf(value: unknown, id: string, warnings: string[]): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  let schema: unknown = value;
  if (typeof value === 'string') {
    try {
      schema = JSON.parse(value) as unknown;
    } catch {
      schema = undefined;
    }
  }
  if (isRecord(schema)) return schema;
  warnings.push(`Step "${id}": ignored an output schema that is not a JSON Schema object (${describeRaw(value)}).`);
  return undefined;
}

function attachmentsOf(value: unknown, id: string, warnings: string[]): Attachment[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = attachmentSchema.safeParse(item);
    if (parsed.success) return [parsed.data];
    warnings.push(`Step "${id}": ignored an attachment that is not {kind: link|image|file, ref}.`);
    return [];
  });
}


/**
 * A list of names (skills, tags): a list of strings or one comma-separated string; names
 * are trimmed, empty ones and repeats dropped, at most 32 of at most 64 characters (a longer
 * one is dropped with a warning).
 */
export function wordsOf(value: unknown, id: string | undefined, field: string, warnings: string[]): string[] {
  if (value === undefined || value === null) return [];
  const where = id === undefined ? `The plan's "${field}"` : `Step "${id}": "${field}"`;
  const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
  if (items === undefined) {
    warnings.push(`${where} ignored: give a list of names.`);
    return [];
  }
  const words: string[] = [];
  for (const item of items) {
    const word = typeof item === 'string' ? item.trim() : undefined;
    if (word === undefined || word.length > maxListedNameLength) {
      warnings.push(
        `${where}: ignored ${word === undefined ? `a value that is not a name (${describeRaw(item)})` : `a name longer than ${maxListedNameLength} characters`}.`,
      );
    } else if (actingCharacter.test(word)) {
      // Not echoed: the warning is shown as text, which the name's controls would act on.
      warnings.push(`${where}: ignored a name holding control characters.`);
    } else if (word !== '' && !words.includes(word)) words.push(word);
  }
  if (words.length > maxListedNames) warnings.push(`${where}: only the first ${maxListedNames} names are kept.`);
  return words.slice(0, maxListedNames);
}

function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]!.trim();
  return line.length <= maxTitleLength ? line : `${line.slice(0, maxTitleLength - 1)}…`;
}

/** A step field holding workspace-relative paths, with its bounds. */
interface PathListField {
  name: string;
  maxEntries: number;
  maxLength: number;
}

const writesField: PathListField = { name: 'writes', maxEntries: maxWritePatterns, maxLength: maxWritePatternLength };
const basedOnField: PathListField = { name: 'basedOn', maxEntries: maxBasedOnPerStep, maxLength: maxBasisEntryLength };

/**
 * A step's `writes` (or, with `field`, another list of paths such as `basedOn`): a list of
 * workspace-relative paths or globs (or one string), each normalized; an absolute one, one
 * that climbs out with `..`, one holding control characters or too long is dropped with a
 * warning. `undefined` when none was given.
 */
function writePatternsOf(value: unknown, id: string, warnings: string[], field: PathListField = writesField): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
  if (items === undefined) {
    warnings.push(`Step "${id}": "${field.name}" ignored: give a list of paths or globs.`);
    return undefined;
  }
  const patterns: string[] = [];
  for (const item of items) {
    const pattern = typeof item === 'string' ? normalizeScopePattern(item) : undefined;
    if (pattern === undefined || pattern === '' || pattern.length > field.maxLength || actingCharacter.test(pattern)) {
      warnings.push(`Step "${id}": "${field.name}" ignored an entry that is not a usable path or glob.`);
    } else if (pattern.startsWith('/') || /^[a-zA-Z]:/.test(pattern) || pattern.split('/').includes('..')) {
      warnings.push(`Step "${id}": "${field.name}" ignored ${JSON.stringify(pattern)}: paths are relative to the workspace and stay inside it.`);
    } else if (!patterns.includes(pattern)) patterns.push(pattern);
  }
  if (patterns.length > field.maxEntries) warnings.push(`Step "${id}": only the first ${field.maxEntries} entries of "${field.name}" are kept.`);
  return patterns.slice(0, field.maxEntries);
}

/** `base`, or `base-2`, `base-3`… when a step is written with it: a replacement id never takes another step's. */
function freeId(base: string, taken: ReadonlySet<string> | undefined): string {
  if (taken?.has(base) !== true) return base;
  let suffix = 2;
  while (taken.has(`${base}-${suffix}`)) suffix++;
  return `${base}-${suffix}`;
}
