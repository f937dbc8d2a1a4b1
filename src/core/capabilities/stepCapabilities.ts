import { attachmentTarget } from '../plan/attachmentTarget';
import type { Plan, Step } from '../plan/planSchema';
import { isPathToken } from '../text/pathsInText';
import { compileGlob } from '../workspace/globMatcher';
import type { CapabilityCatalogue, Instruction, Skill } from './capabilityCatalogue';

/** The instructions and skills one step's agent gets, and the skills it names that the catalogue lacks. */
export interface StepCapabilities {
  /**
   * In the order they go into the prompt: `.github/copilot-instructions.md`, the nearest `AGENTS.md` and `CLAUDE.md` files, then scoped files, each by path.
   */
  instructions: Instruction[];
  /** The skills the step names (in its order), then those the plan's context tags match (in catalogue order). */
  skills: Skill[];
  /** Names in `Step.skills` the catalogue has no skill of. */
  unknownSkills: string[];
}

const none: StepCapabilities = { instructions: [], skills: [], unknownSkills: [] };
/** How much of a step's input and title is looked at for paths, in characters. */
const scannedChars = 20_000;
/** The most paths taken from one step. */
const maxStepFiles = 200;
/** Globs that match every file: an instruction with one applies to every agent step, files or not. */
const everything = new Set(['*', '**', '**/*']);
const opening = /^[`'"([{<]+/;
// The lookbehind starts the match at the run's first character only, so a long run costs linear time.
const closing = /(?<![`'")\]}>.,;:!?])[`'")\]}>.,;:!?]+$/;

/**
 * What `step` uses of `catalogue` (agent steps only; others use nothing): every
 * `.github/copilot-instructions.md`; per kind (`AGENTS.md`, `CLAUDE.md`) the file nearest
 * above each file the step touches (the root one for a step that names no file); scoped
 * instructions whose `applyTo` matches a file the step touches (a glob that matches
 * everything, `**`, matches every step); the skills named by `step.skills`, then those
 * whose tags include one of `plan.contextTags` (case-insensitive).
 */
export function stepCapabilities(step: Step, plan: Pick<Plan, 'contextTags'>, catalogue: CapabilityCatalogue): StepCapabilities {
  if (step.kind !== 'agent') return none;
  const files = stepFiles(step);
  const instructions = [
    ...catalogue.instructions.filter((instruction) => instruction.kind === 'copilot'),
    ...nearest(catalogue.instructions.filter((instruction) => instruction.kind === 'agents'), files),
    ...nearest(catalogue.instructions.filter((instruction) => instruction.kind === 'claude'), files),
    ...catalogue.instructions.filter((instruction) => instruction.kind === 'scoped' && appliesTo(instruction, files)),
  ];
  const byName = new Map(catalogue.skills.map((skill) => [skill.name, skill]));
  const skills: Skill[] = [];
  const unknownSkills: string[] = [];
  for (const name of step.skills ?? []) {
    const skill = byName.get(name);
    if (skill === undefined) unknownSkills.push(name);
    else if (!skills.includes(skill)) skills.push(skill);
  }
  const tags = new Set((plan.contextTags ?? []).map((tag) => tag.toLowerCase()));
  for (const skill of catalogue.skills) {
    if (!skills.includes(skill) && skill.tags.some((tag) => tags.has(tag))) skills.push(skill);
  }
  return { instructions, skills, unknownSkills };
}

/**
 * The workspace-relative paths a step names: its file attachments, string arguments that
 * look like paths, and path-like words of its input and title (a trailing `/` marks a
 * folder). At most 200, in the order found, without duplicates; `..` and absolute paths
 * are left out.
 */
export function stepFiles(step: Pick<Step, 'attachments' | 'args' | 'input' | 'title'>): string[] {
  const found = new Set<string>();
  const add = (candidate: string): void => {
    const path = candidate.trim().replace(/^\.\//, '');
    if (found.size >= maxStepFiles || path === '' || path.startsWith('/') || path.split('/').includes('..') || !isPathToken(path)) return;
    found.add(path);
  };
  for (const attachment of step.attachments ?? []) {
    if (attachment.kind !== 'file') continue;
    const target = attachmentTarget(attachment);
    if (target.kind === 'path') add(target.path);
  }
  for (const value of Object.values(step.args ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string') add(item);
  }
  for (const text of [step.input ?? '', step.title]) {
    for (const word of text.slice(0, scannedChars).split(/\s+/)) add(word.replace(opening, '').replace(closing, ''));
  }
  return [...found];
}

/** Per file, the instruction whose directory is its nearest enclosing one; the root's when there are no files. */
function nearest(candidates: readonly Instruction[], files: readonly string[]): Instruction[] {
  if (candidates.length === 0) return [];
  const chosen = new Set<Instruction>();
  const folders =
    files.length === 0 ? [''] : files.map((file) => (file.endsWith('/') ? file.slice(0, -1) : file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : ''));
  for (const folder of folders) {
    let best: Instruction | undefined;
    for (const candidate of candidates) {
      const encloses = candidate.directory === '' || folder === candidate.directory || folder.startsWith(`${candidate.directory}/`);
      if (encloses && (best === undefined || candidate.directory.length > best.directory.length)) best = candidate;
    }
    if (best !== undefined) chosen.add(best);
  }
  return candidates.filter((candidate) => chosen.has(candidate));
}

function appliesTo(instruction: Instruction, files: readonly string[]): boolean {
  return instruction.applyTo.some((glob) => {
    if (everything.has(glob.trim())) return true;
    const matches = compileGlob(glob);
    return files.some((file) => !file.endsWith('/') && matches(file));
  });
}
