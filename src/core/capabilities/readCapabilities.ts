import { errorMessage } from '../../shared/errorMessage';
import { visibleControls } from '../../shared/visibleCharacters';
import type { WorkspaceFs } from '../workspacePorts';
import { capText } from '../text/capText';
import { oneLine } from '../text/oneLine';
import { compileGlob } from '../workspace/globMatcher';
import { PathRefusedError } from '../workspace/resolveInRoot';
import { isWorkspaceError } from '../workspace/workspaceError';
import { holdsPrivateKey, privateKeyReason } from '../workspace/credentialFiles';
import { refuseWithheldTarget, withheldRead } from '../tools/withheldFiles';
import {
  capabilityLimits,
  type CapabilityCatalogue,
  type CapabilityDiagnostic,
  type Instruction,
  type InstructionKind,
  type Skill,
} from './capabilityCatalogue';
import { parseFrontMatter } from './frontMatter';
import { skillNamePattern } from '../../shared/vocabulary';

/** A skills folder outside the workspace (the user's own), read through a `WorkspaceFs` confined to it. */
export interface SkillFolder {
  /** How the user knows the folder (its path), shown as the source of its skills. */
  label: string;
  fs: WorkspaceFs;
}

/** What `readCapabilities` reads besides the workspace. */
export interface ReadCapabilitiesOptions {
  /** The user's own skills folders, read after the workspace's (their skills win over the workspace's of the same name); each holds `<skill>/SKILL.md`. */
  userSkillFolders?: readonly SkillFolder[];
  signal?: AbortSignal;
}

/** The workspace's skills folders, in the order their skills are taken (the first of a name wins). */
export const workspaceSkillFolders = ['.github/skills', '.claude/skills'] as const;

const conventionFiles = '{AGENTS.md,CLAUDE.md,copilot-instructions.md,*.instructions.md,SKILL.md}';

/**
 * Reads the catalogue of `workspace` (through its confinement: links out of it are neither
 * listed nor read, `.gitignore`d files are skipped): every `AGENTS.md` and `CLAUDE.md`,
 * `.github/copilot-instructions.md`, `.github/instructions/**\/*.instructions.md` (with
 * `applyTo` front matter), the skills of `workspaceSkillFolders`, then those of the user's
 * folders. Skills are unique by name: the first read wins, but the user's own skill replaces
 * a workspace skill of its name (the workspace file is named in a diagnostic). A file that is too large, unreadable, or has bad front matter is left out with a
 * diagnostic naming it and the problem, and so is one tools would not read for a model (`withheldRead`: it leads through
 * a link to `.env` or into `.git`) or one that holds a private key; nothing here throws but the signal's abort.
 */
export async function readCapabilities(workspace: WorkspaceFs, options: ReadCapabilitiesOptions = {}): Promise<CapabilityCatalogue> {
  const diagnostics: CapabilityDiagnostic[] = [];
  const instructions: Instruction[] = [];
  const skills: Skill[] = [];
  const files = await listFiles(workspace, workspace.rootLabel, diagnostics, options.signal);
  const instructionPaths = files.filter((path) => instructionKind(path) !== undefined);
  for (const path of limited(instructionPaths, 'instruction files in the workspace', workspace.rootLabel, diagnostics)) {
    const read = await readFile(workspace, path, path, diagnostics, options.signal);
    if (read === undefined) continue;
    const instruction = toInstruction(path, instructionKind(path) as InstructionKind, read, diagnostics);
    if (instruction !== undefined) instructions.push(instruction);
  }
  for (const folder of workspaceSkillFolders) {
    const paths = files.filter((path) => isSkillFile(path, `${folder}/`));
    for (const path of limited(paths, `skills in ${folder}`, folder, diagnostics)) {
      const read = await readFile(workspace, path, path, diagnostics, options.signal);
      if (read !== undefined) addSkill(skills, toSkill(path, path.slice(0, -'/SKILL.md'.length), read, diagnostics), diagnostics);
    }
  }
  for (const folder of options.userSkillFolders ?? []) {
    const label = visibleControls(oneLine(folder.label, 300));
    const paths = (await listFiles(folder.fs, label, diagnostics, options.signal)).filter((path) => isSkillFile(path, ''));
    for (const path of limited(paths, `skills in ${label}`, label, diagnostics)) {
      const source = `${label}/${path}`;
      const read = await readFile(folder.fs, path, source, diagnostics, options.signal);
      if (read !== undefined) addSkill(skills, toSkill(source, undefined, read, diagnostics), diagnostics);
    }
  }
  return { instructions, skills, diagnostics };
}

function instructionKind(path: string): InstructionKind | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name === 'AGENTS.md') return 'agents';
  if (name === 'CLAUDE.md') return 'claude';
  if (path === '.github/copilot-instructions.md') return 'copilot';
  if (path.startsWith('.github/instructions/') && name.endsWith('.instructions.md')) return 'scoped';
  return undefined;
}

/** `<prefix><skill>/SKILL.md`, one folder deep. */
function isSkillFile(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix) || !path.endsWith('/SKILL.md')) return false;
  return !path.slice(prefix.length, -'/SKILL.md'.length).includes('/') && path.length > prefix.length + '/SKILL.md'.length;
}

async function listFiles(fs: WorkspaceFs, label: string, diagnostics: CapabilityDiagnostic[], signal: AbortSignal | undefined): Promise<string[]> {
  try {
    return (await fs.list(conventionFiles, signal)).files;
  } catch (error: unknown) {
    signal?.throwIfAborted();
    diagnostics.push({ file: label, message: `Its skills and instructions could not be listed: ${oneLine(errorMessage(error), 500)}` });
    return [];
  }
}

function limited(paths: readonly string[], what: string, where: string, diagnostics: CapabilityDiagnostic[]): readonly string[] {
  if (paths.length <= capabilityLimits.maxFilesPerPlace) return paths;
  diagnostics.push({
    file: where,
    message: `Only the first ${capabilityLimits.maxFilesPerPlace} of ${paths.length} ${what} are read; ${paths.length - capabilityLimits.maxFilesPerPlace} were left out.`,
  });
  return paths.slice(0, capabilityLimits.maxFilesPerPlace);
}

interface ReadFile {
  text: string;
  bytes: number;
}

async function readFile(
  fs: WorkspaceFs,
  path: string,
  source: string,
  diagnostics: CapabilityDiagnostic[],
  signal: AbortSignal | undefined,
): Promise<ReadFile | undefined> {
  try {
    // Its text goes into every prompt: a convention file that is (or leads through a link to) a file tools keep from the
    // model, or that holds a private key, is kept from it too (a committed AGENTS.md -> .env).
    const withheld = await withheldRead(fs, path, signal ?? new AbortController().signal);
    if (withheld !== undefined) {
      diagnostics.push({ file: shown(source), message: `It was left out: ${withheld.reason}.` });
      return undefined;
    }
    const text = await fs.readText(path, signal, { maxBytes: capabilityLimits.maxFileBytes, refuseTarget: refuseWithheldTarget() });
    if (holdsPrivateKey(text)) {
      diagnostics.push({ file: shown(source), message: `It was left out: ${privateKeyReason}.` });
      return undefined;
    }
    return { text: capText(text, capabilityLimits.maxFileBytes), bytes: new TextEncoder().encode(text).length };
  } catch (error: unknown) {
    signal?.throwIfAborted();
    const message = isWorkspaceError(error, 'too_large')
      ? `It is larger than ${capabilityLimits.maxFileBytes / 1024} KiB, the most read of one such file; it was left out.`
      : error instanceof PathRefusedError
        ? `It was left out: ${oneLine(error.reason, 500)}.`
        : `It could not be read (${oneLine(errorMessage(error), 500)}); it was left out.`;
    diagnostics.push({ file: shown(source), message });
    return undefined;
  }
}

function toInstruction(path: string, kind: InstructionKind, read: ReadFile, diagnostics: CapabilityDiagnostic[]): Instruction | undefined {
  const directory = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  if (kind !== 'scoped') return { kind, path, directory: kind === 'copilot' ? '' : directory, applyTo: [], text: read.text, bytes: read.bytes };
  const front = parseFrontMatter(read.text);
  if (front.problem !== undefined) {
    diagnostics.push({ file: shown(path), message: `It was left out: ${front.problem}.` });
    return undefined;
  }
  const applyTo: string[] = [];
  for (const glob of globsOf(front.fields?.applyTo)) {
    try {
      compileGlob(glob);
      applyTo.push(glob);
    } catch (error: unknown) {
      diagnostics.push({ file: shown(path), message: `Its applyTo glob "${shown(glob)}" was ignored: ${oneLine(errorMessage(error), 300)}.` });
    }
  }
  if (applyTo.length === 0) {
    diagnostics.push({
      file: shown(path),
      message: 'It has no usable applyTo globs, so it applies to no step; add one, e.g. applyTo: "**/*.ts" (or "**" for every step).',
    });
  }
  const description = typeof front.fields?.description === 'string' ? cleanLine(front.fields.description, capabilityLimits.maxDescriptionChars) : undefined;
  return { kind, path, directory: '', applyTo, ...(description ? { description } : {}), text: front.body, bytes: read.bytes };
}

/** `applyTo` as VS Code writes it: one string of comma-separated globs, or a list. */
function globsOf(value: unknown): string[] {
  const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  return items.map((item) => item.trim()).filter((item) => item !== '').slice(0, 50);
}

function toSkill(source: string, workspaceFolder: string | undefined, read: ReadFile, diagnostics: CapabilityDiagnostic[]): Skill | undefined {
  const file = shown(source);
  const front = parseFrontMatter(read.text);
  const leftOut = (problem: string): undefined => {
    diagnostics.push({ file, message: `The skill was left out: ${problem}.` });
    return undefined;
  };
  if (front.problem !== undefined) return leftOut(front.problem);
  if (front.fields === undefined) {
    return leftOut('it has no front matter; start SKILL.md with "---", a line "name: my-skill", a line "description: …", and "---"');
  }
  const { name, description } = front.fields;
  if (typeof name !== 'string' || name.trim() === '') return leftOut('its front matter has no "name"');
  if (name.length > capabilityLimits.maxNameChars || !skillNamePattern.test(name)) {
    return leftOut(
      `its name "${shown(oneLine(name, 80))}" is not lowercase letters, digits and single hyphens (at most ${capabilityLimits.maxNameChars} characters)`,
    );
  }
  if (typeof description !== 'string' || description.trim() === '') return leftOut('its front matter has no "description"');
  return {
    name,
    description: cleanLine(description, capabilityLimits.maxDescriptionChars),
    tags: tagsOf(front.fields.tags, file, diagnostics),
    source: file,
    ...(workspaceFolder === undefined ? {} : { workspaceFolder }),
    text: front.body,
    bytes: read.bytes,
  };
}

function tagsOf(value: unknown, file: string, diagnostics: CapabilityDiagnostic[]): string[] {
  if (value === undefined || value === null) return [];
  const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
  if (items === undefined) {
    diagnostics.push({ file, message: 'Its "tags" were ignored: give them as a list of words.' });
    return [];
  }
  const tags = [
    ...new Set(
      items
        .filter((item): item is string => typeof item === 'string')
        .map((item) => cleanLine(item, capabilityLimits.maxTagChars).toLowerCase())
        .filter((tag) => tag !== ''),
    ),
  ];
  if (tags.length > capabilityLimits.maxTags) {
    diagnostics.push({ file, message: `Only its first ${capabilityLimits.maxTags} tags are used; ${tags.length - capabilityLimits.maxTags} were ignored.` });
  }
  return tags.slice(0, capabilityLimits.maxTags);
}

/**
 * Adds `skill` unless one of its name is known: the first of a name wins, except that the
 * user's own skill (no `workspaceFolder`) takes the place of a workspace's, which a cloned
 * repository could otherwise use to replace it unnoticed; the one left out gets a diagnostic.
 */
function addSkill(skills: Skill[], skill: Skill | undefined, diagnostics: CapabilityDiagnostic[]): void {
  if (skill === undefined) return;
  const index = skills.findIndex((known) => known.name === skill.name);
  const first = skills[index];
  if (first === undefined) {
    skills.push(skill);
  } else if (first.workspaceFolder !== undefined && skill.workspaceFolder === undefined) {
    skills[index] = skill;
    diagnostics.push({
      file: first.source,
      message: `The workspace's skill "${skill.name}" was left out: your own skill of the same name, ${skill.source}, is used instead.`,
    });
  } else {
    diagnostics.push({ file: skill.source, message: `The skill "${skill.name}" was left out: ${first.source} has the same name and was read first.` });
  }
}

/** One line of at most `max` characters with controls and text-direction marks shown as escapes. */
function cleanLine(text: string, max: number): string {
  return visibleControls(oneLine(text, max));
}

function shown(text: string): string {
  return visibleControls(oneLine(text, 300));
}
