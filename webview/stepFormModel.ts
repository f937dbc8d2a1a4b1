import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { PanelEdit } from '../src/shared/panelProtocol';
import type { StepView } from '../src/shared/panelViewModel';
import { checksSchema, fieldErrors, newStepSchema, normalizeWritePattern, stepPatchSchema, writePatternsSchema } from '../src/shared/stepEditSchema';
import { failurePolicies, maxListedNameLength, skillNamePattern, stepKinds, type StepKind } from '../src/shared/vocabulary';
import { errorMessage } from '../src/shared/errorMessage';
import { stepKindLabels } from '../src/shared/stepKindLabels';

/** The fields the step form can show. */
export type FieldName =
  | 'id'
  | 'title'
  | 'kind'
  | 'tool'
  | 'args'
  | 'agent'
  | 'input'
  | 'skills'
  | 'writes'
  | 'dependsOn'
  | 'onFailure'
  | 'maxAttempts'
  | 'critical'
  | 'verification'
  | 'checks'
  | 'onVerificationFailure';

/** How a field is entered: one line, several lines (monospace for code), a choice, or a checkbox. */
export type FieldControl = 'text' | 'area' | 'code' | 'select' | 'checkbox';

/** One field of the form: its visible label (also its accessible name), control and choices. */
export interface FieldSpec {
  name: FieldName;
  label: string;
  control: FieldControl;
  placeholder?: string;
  /** The choices of a select; `tools` are the tools the host offers. */
  options?: (tools: readonly string[], current: string) => readonly string[];
  /**
   * What a select shows for a choice, where its value alone says too little (a step kind's name, a tool no one offers);
   * else the value. `needingModel`: the kinds a model does, when none is set up; `tools`: the tools the host offers.
   */
  optionLabel?: (option: string, needingModel: readonly StepKind[], tools: readonly string[]) => string;
  /** Lines a several-line control shows (4 when not given). */
  rows?: number;
  /** A line under the control saying what it accepts, from the workspace's skill names (`undefined`: not read yet). */
  note?: (skills: readonly string[] | undefined) => string;
}

/** The form's values by field name, as text (`critical` is "true" or "false"). */
export type FormValues = Partial<Record<FieldName, string>>;

/** Every field the form knows, by name. */
export const fieldSpecs: Record<FieldName, FieldSpec> = {
  id: { name: 'id', label: 'Id', control: 'text', placeholder: 'e.g. S010' },
  title: { name: 'title', label: 'Title', control: 'text' },
  kind: { name: 'kind', label: 'Kind', control: 'select', options: () => stepKinds, optionLabel: (option, needingModel) => (isKind(option) ? kindLabel(option, needingModel) : option) },
  // The step's own tool is a choice even when no one offers it (a model's made-up append_file): a select without it
  // showed the first tool, and a Save kept the unknown one unseen.
  tool: {
    name: 'tool',
    label: 'Tool',
    control: 'select',
    options: (tools, current) => (current === '' || tools.includes(current) ? (tools.length > 0 ? tools : [current]) : [current, ...tools]),
    optionLabel: (option, _needingModel, tools) => (tools.length > 0 && !tools.includes(option) ? `${option} (not a known tool)` : option),
  },
  args: { name: 'args', label: 'Arguments', control: 'code', rows: 6, note: () => argumentsNote },
  agent: { name: 'agent', label: 'Agent', control: 'text' },
  input: { name: 'input', label: 'Input', control: 'area' },
  skills: { name: 'skills', label: 'Skills', control: 'text', placeholder: 'names, comma-separated', note: skillsNote },
  writes: { name: 'writes', label: 'Files it may change', control: 'area', rows: 2, placeholder: 'e.g. src/**/*.ts', note: () => writesNote },
  dependsOn: { name: 'dependsOn', label: 'Depends on', control: 'text', placeholder: 'ids, comma-separated' },
  onFailure: { name: 'onFailure', label: 'On failure', control: 'select', options: () => failurePolicies },
  maxAttempts: { name: 'maxAttempts', label: 'Attempts', control: 'text', note: () => attemptsNote },
  critical: { name: 'critical', label: 'Critical: a failure stops the run', control: 'checkbox' },
  verification: { name: 'verification', label: 'Verification', control: 'text', placeholder: 'e.g. result.length > 0' },
  checks: { name: 'checks', label: 'Checks', control: 'code', rows: 3, placeholder: '- kind: command\n  argv: [python, -m, pytest]', note: () => checksNote },
  onVerificationFailure: { name: 'onVerificationFailure', label: 'If a check fails', control: 'select', options: () => failurePolicies },
};

/** The fields that belong to one kind of step, shown after Kind. A step yours to do has checks: you are told them before you say done. */
export const kindFields: Readonly<Record<StepKind, readonly FieldName[]>> = {
  tool: ['tool', 'args', 'writes', 'checks'],
  agent: ['agent', 'input', 'skills', 'writes', 'checks'],
  synthesis_gate: ['agent', 'input'],
  human_review: ['agent', 'input'],
  clarification: ['agent', 'input'],
  manual: ['input', 'checks'],
};

const tried: readonly FieldName[] = ['onFailure', 'maxAttempts', 'critical', 'verification', 'onVerificationFailure'];

/**
 * What happens when an existing step of each kind fails, shown last. A person's step is never tried again (nothing
 * would change) and its result is their note or answer, so it has no attempts and no verification predicate; a step
 * yours to do keeps what happens when one of its checks fails.
 */
export const outcomeFields: Readonly<Record<StepKind, readonly FieldName[]>> = {
  tool: tried,
  agent: tried,
  synthesis_gate: tried,
  human_review: ['onFailure', 'critical'],
  clarification: ['onFailure', 'critical'],
  manual: ['onFailure', 'critical', 'onVerificationFailure'],
};

/** "Skills of this workspace: release, testing." or how to add some; nothing before they were read. */
function skillsNote(skills: readonly string[] | undefined): string {
  if (skills === undefined) return '';
  if (skills.length === 0) return 'This workspace has no skills yet: add SKILL.md files under .github/skills or .claude/skills.';
  return `Skills of this workspace: ${skills.join(', ')}.`;
}

const writesNote =
  'One path or glob a line, inside the workspace; a change of another file asks first. Empty: no limit.';

const argumentsNote = 'YAML or JSON. A text of several lines goes after "name: |" on lines of its own, each indented by two spaces.';

const checksNote =
  'Run after the step; all must pass. A list, one "- kind:" each: command (argv), file_exists or file_absent (path), file_contains (path, text), no_new_diagnostics. Empty: none.';

const attemptsNote =
  'Tries in all, the first included: 1 is no retry, Retry needs 2 or more. A failure another try cannot change (a missing program, a usage error, failing tests) is not tried again.';

/**
 * The form's values once field `name` holds `value`, with the failure policy and the
 * attempts kept consistent: choosing Retry with fewer than 2 attempts sets 2 (the first try
 * and one retry); leaving Retry for another policy sets 1, so the step is tried once. Another
 * tool gets the arguments it had in this form before (`remembered`, by tool), else its template
 * with what of the typed arguments it takes: going through other tools (typing `ru` passes
 * read_file) and back to run_command gave it an empty `argv` (a newcomer's trial).
 */
export function withFieldValue(
  values: FormValues,
  name: FieldName,
  value: string,
  templates: Readonly<Record<string, string>> = {},
  parameters: Readonly<Record<string, readonly string[]>> = {},
  remembered: Readonly<Record<string, string>> = {},
): FormValues {
  const next: FormValues = { ...values, [name]: value };
  const template = templates[value];
  if (name === 'tool' && value !== values.tool) {
    if (Object.hasOwn(remembered, value)) next.args = remembered[value];
    else if (template !== undefined) next.args = argumentsFor(values.args ?? '', template, parameters[value]);
  }
  if (name !== 'onFailure' || value === values.onFailure) return next;
  const attempts = Number(values.maxAttempts);
  if (value === 'retry' && !(attempts >= 2)) next.maxAttempts = '2';
  else if (value !== 'retry' && values.onFailure === 'retry') next.maxAttempts = '1';
  return next;
}

/**
 * The arguments offered for another tool: its `template`, with the typed arguments whose names it has (among `names`,
 * its parameters, when known, else the template's own), so the step does not keep arguments the tool does not take.
 * Arguments that cannot be read are left as typed (the user is writing them).
 */
function argumentsFor(typed: string, template: string, names: readonly string[] | undefined): string {
  const current = readStructured(typed, '{}');
  const base = readStructured(template, '{}');
  if ('problem' in current || 'problem' in base || !isRecord(current.value) || !isRecord(base.value)) return typed.trim() === '' ? template : typed;
  const takes = new Set([...Object.keys(base.value), ...(names ?? [])]);
  const kept = Object.entries(current.value).filter(([argument, given]) => takes.has(argument) && given !== '');
  if (kept.length === 0) return template;
  // Every argument typed is one the tool takes, and it needs no other: what was typed stays as it was written.
  if (kept.length === Object.keys(current.value).length && Object.keys(base.value).every((argument) => Object.hasOwn(current.value as object, argument))) return typed;
  const merged = { ...base.value, ...Object.fromEntries(kept) };
  return stringifyYaml(merged, { blockQuote: 'literal', lineWidth: 0 }).trimEnd();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const isKind = (kind: string | undefined): kind is StepKind => (stepKinds as readonly string[]).includes(kind ?? '');

/**
 * The fields shown, in visual (and tab) order: the id of a new step, title, kind, the
 * kind's own fields, dependencies, and for an existing step what happens when it fails
 * (`outcomeFields`). A field not shown keeps the step's value: it is sent as it was.
 */
export function formFields(kind: string | undefined, adding: boolean): FieldName[] {
  const own = isKind(kind) ? kindFields[kind] : [];
  const outcome = adding ? [] : isKind(kind) ? outcomeFields[kind] : tried;
  return [...(adding ? (['id'] as const) : []), 'title', 'kind', ...own, 'dependsOn', ...outcome];
}

/** The Kind choice's words for `kind`: who does the work, and that it needs a model when `needingModel` (the kinds a model does, when none is set up) holds it. */
export function kindLabel(kind: StepKind, needingModel: readonly StepKind[]): string {
  return needingModel.includes(kind) ? `${stepKindLabels[kind]} (needs a model: none is set up)` : stepKindLabels[kind];
}

/** What the form knows of the plan besides the step: each tool's arguments template, and the ids steps have. */
export interface FormSetting {
  templates?: Readonly<Record<string, string>>;
  stepIds?: readonly string[];
}

/**
 * The id a new step is offered: the plan's own pattern (a prefix and a number, its width
 * kept: S001 → S004, L1 → L2) one past the highest such number, else S1.
 */
export function suggestStepId(ids: readonly string[]): string {
  let best: { prefix: string; number: number; width: number } | undefined;
  for (const id of ids) {
    const match = /^([A-Za-z_-]*)(\d+)$/.exec(id);
    if (!match) continue;
    const number = Number(match[2]);
    if (!best || number > best.number) best = { prefix: match[1] ?? '', number, width: match[2]?.length ?? 1 };
  }
  const taken = new Set(ids);
  const { prefix, width } = best ?? { prefix: 'S', width: 1 };
  for (let next = (best?.number ?? 0) + 1; ; next++) {
    const id = `${prefix}${String(next).padStart(width, '0')}`;
    if (!taken.has(id)) return id;
  }
}

/** The values the form starts with: the step's, or a new tool step's defaults (the next free id, the first tool's arguments to fill in). */
export function initialValues(step: StepView | undefined, tools: readonly string[], setting: FormSetting = {}): FormValues {
  if (!step) {
    const tool = tools[0] ?? '';
    const args = setting.templates?.[tool] ?? '{}';
    return { id: suggestStepId(setting.stepIds ?? []), title: '', kind: 'tool', tool, args, agent: 'default', input: '', writes: '', checks: '', dependsOn: '' };
  }
  return {
    title: step.title,
    kind: step.kind,
    tool: step.tool ?? tools[0] ?? '',
    args: step.args ?? '{}',
    agent: step.agent ?? '',
    input: step.input ?? '',
    skills: (step.skills ?? []).join(', '),
    writes: (step.writePatterns ?? []).join('\n'),
    dependsOn: step.dependsOn.join(', '),
    onFailure: step.onFailure,
    maxAttempts: String(step.maxAttempts),
    critical: String(step.critical),
    verification: step.verification ?? '',
    checks: step.checksText ?? '',
    onVerificationFailure: step.onVerificationFailure,
  };
}

/** What submitting the form gives: the edit to send, or one message per invalid field. */
export type FormResult = { ok: true; edit: PanelEdit } | { ok: false; errors: Partial<Record<FieldName, string>> & Record<string, string> };

/** Where a submitted form goes: the position of a new step, and the workspace's skill names when they were read (others are refused). */
export interface FormContext {
  insertAt?: number;
  skills?: readonly string[];
}

/**
 * Turns the form's values into the edit the host receives, validated with the same zod
 * schemas the host checks on arrival: `updateStep` of `step`, or `addStep` (at `insertAt`)
 * when there is no step. Only the fields of the chosen kind are sent; an agent step's
 * skills must be among `skills` when those are known.
 */
export function formToEdit(values: FormValues, step: StepView | undefined, context: FormContext = {}): FormResult {
  const { insertAt } = context;
  const errors: Record<string, string> = {};
  const tool = values.kind === 'tool';
  let args: Record<string, unknown> | undefined;
  if (tool) {
    const parsed = readStructured(values.args, '{}');
    if ('problem' in parsed) errors.args = `Arguments are not valid YAML or JSON: ${parsed.problem}`;
    else if (parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) errors.args = 'Arguments are names with values, e.g. path: README.md';
    else args = parsed.value as Record<string, unknown>;
  }
  const own = isKind(values.kind) ? kindFields[values.kind] : [];
  const checks = own.includes('checks') ? checksOf(values.checks, step, errors) : {};
  const dependsOn = namesOf(values.dependsOn);
  const agent = values.agent?.trim();
  const skills = values.kind === 'agent' ? [...new Set(namesOf(values.skills))] : undefined;
  const unknown = skills && context.skills ? skills.filter((name) => !context.skills?.includes(name)) : [];
  // A name no skill can have is not echoed: typed control or direction characters would reorder the message.
  if (skills?.some((name) => name.length > maxListedNameLength || !skillNamePattern.test(name))) errors.skills = skillNameRule;
  else if (unknown.length > 0) errors.skills = unknownSkillsMessage(unknown, context.skills ?? []);
  const writes = own.includes('writes') ? writesOf(values.writes, step, errors) : {};
  const byKind = tool
    ? { ...(values.tool ? { tool: values.tool } : {}), ...(args ? { args } : {}), ...writes, ...checks }
    : { ...(agent ? { agent } : {}), input: values.input ?? '', ...(skills && (step || skills.length > 0) ? { skills } : {}), ...writes, ...checks };
  if (step) {
    const patch = {
      title: values.title ?? '',
      kind: values.kind,
      dependsOn,
      onFailure: values.onFailure,
      maxAttempts: Number(values.maxAttempts),
      critical: values.critical === 'true',
      verification: values.verification ?? '',
      ...(values.onVerificationFailure ? { onVerificationFailure: values.onVerificationFailure } : {}),
      ...byKind,
    };
    const parsed = stepPatchSchema.safeParse(patch);
    if (!parsed.success) Object.assign(errors, { ...fieldErrors(parsed.error), ...errors });
    if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
    return { ok: true, edit: { type: 'updateStep', stepId: step.id, patch: parsed.data } };
  }
  const parsed = newStepSchema.safeParse({
    id: values.id ?? '',
    title: values.title ?? '',
    kind: values.kind,
    dependsOn,
    ...byKind,
    ...(tool ? {} : { input: values.input || values.title || '' }),
  });
  if (!parsed.success) Object.assign(errors, { ...fieldErrors(parsed.error), ...errors });
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, edit: { type: 'addStep', step: parsed.data, ...(insertAt === undefined ? {} : { index: insertAt }) } };
}

/**
 * The step's `writes` to send: the field's paths and globs, one a line (blanks left out, each
 * once), only when they differ from the step's (an empty list then removes them), for a new
 * step only when there are some; a message in `errors.writes` when one is refused. An
 * unchanged list is neither sent nor checked again: a plan file's own entries stay as they are.
 */
function writesOf(text: string | undefined, step: StepView | undefined, errors: Record<string, string>): { writes?: string[] } {
  const lines = (text ?? '').split('\n').filter((line) => line.trim() !== '');
  const typed = [...new Set(lines.map(normalizeWritePattern))];
  if (step ? typed.join('\n') === (step.writePatterns ?? []).join('\n') : typed.length === 0) return {};
  const parsed = writePatternsSchema.safeParse(typed);
  if (parsed.success) return { writes: parsed.data };
  errors.writes = parsed.error.issues[0]?.message ?? 'Check the paths.';
  return {};
}

/** A YAML or JSON field's value (`empty` when blank), or the first line of why it cannot be read. */
function readStructured(text: string | undefined, empty: string): { value: unknown } | { problem: string } {
  try {
    return { value: parseYaml(text?.trim() || empty) as unknown };
  } catch (error) {
    return { problem: errorMessage(error).split('\n')[0] ?? '' };
  }
}

/**
 * The step's checks to send: the field's list (YAML or JSON), only when it differs from the
 * step's (an empty field then removes them), for a new step only when there are some; a
 * message in `errors.checks` when it cannot be read or a check has no known kind.
 */
function checksOf(text: string | undefined, step: StepView | undefined, errors: Record<string, string>): { checks?: Record<string, unknown>[] } {
  const typed = (text ?? '').trim();
  if (step ? typed === (step.checksText ?? '').trim() : typed === '') return {};
  const parsed = readStructured(typed, '[]');
  if ('problem' in parsed) {
    errors.checks = `Checks are not valid YAML or JSON: ${parsed.problem}`;
    return {};
  }
  const checks = checksSchema.safeParse(parsed.value ?? []);
  if (checks.success) return { checks: checks.data };
  errors.checks = checks.error.issues[0]?.message ?? 'Check the checks.';
  return {};
}

/** The names of a comma-separated field, trimmed, blanks left out. */
export function namesOf(text: string | undefined): string[] {
  return (text ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
}

const skillNameRule = `Skill names are lowercase letters, digits and single hyphens (at most ${maxListedNameLength} characters), such as release-notes; separate them with commas.`;

function unknownSkillsMessage(unknown: readonly string[], known: readonly string[]): string {
  const named = unknown.map((name) => `"${name}"`).join(', ');
  const which = unknown.length === 1 ? `There is no skill ${named} in this workspace` : `There are no skills ${named} in this workspace`;
  return known.length === 0 ? `${which}; it has none yet.` : `${which}; choose from: ${known.join(', ')}.`;
}

/**
 * One sentence naming each invalid field by its visible label, in the form's order, for
 * the announcement after a refused Save (errors of fields not shown come last, unnamed).
 */
export function errorSummary(errors: Readonly<Record<string, string>>, shown: readonly FieldName[]): string {
  const names = Object.keys(errors);
  if (names.length === 0) return '';
  const ordered = [...shown.filter((name) => name in errors), ...names.filter((name) => !(shown as readonly string[]).includes(name))];
  const parts = ordered.map((name) => (name in fieldSpecs ? `${fieldSpecs[name as FieldName].label.split(':')[0]}: ${errors[name]}` : errors[name]));
  return `Not saved, ${ordered.length} field${ordered.length === 1 ? ' needs' : 's need'} attention. ${parts.join(' ')}`;
}
