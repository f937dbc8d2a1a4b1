/**
 * The bounds of the capability catalogue. Sizes of files are in bytes, of texts in
 * characters (UTF-16 code units), of prompt sections in tokens.
 */
export const capabilityLimits = {
  /** The largest `SKILL.md` or instruction file read, in bytes (256 KiB); a larger one is left out with a diagnostic. */
  maxFileBytes: 256 * 1024,
  /** The longest front matter read, in characters; a longer one is refused with a diagnostic. */
  maxFrontMatterChars: 16 * 1024,
  /** The longest skill name, in characters (as the Agent Skills format allows). */
  maxNameChars: 64,
  /** The longest skill or instruction description kept, in characters; a longer one is cut visibly. */
  maxDescriptionChars: 1_024,
  /** Tags kept per skill; tags after these are dropped with a diagnostic. */
  maxTags: 20,
  /** The longest tag, in characters. */
  maxTagChars: 64,
  /** Files read per place (the workspace's instruction files, each skills folder); the others are named in one diagnostic. */
  maxFilesPerPlace: 100,
  /** Tokens of the skill catalogue (names, descriptions, tags) in the planner's prompt. */
  plannerCatalogueTokens: 1_500,
  /** Tokens of one step's instructions and skills in its agent prompt; instructions take at most half, skills the rest. */
  stepSectionTokens: 8_000,
  /** Tokens of the project's instruction files in the prompts of the planner, the replanner and the model critique. */
  conventionTokens: 2_000,
  /** Tokens of a step's instructions and skills in the prompt of its result's review. */
  reviewSectionTokens: 2_000,
} as const;

/**
 * What kind of convention file an instruction is: `AGENTS.md` and `CLAUDE.md` apply by
 * directory (the nearest one above each file a step touches), `copilot` is
 * `.github/copilot-instructions.md` (every agent step), `scoped` is a
 * `.github/instructions/*.instructions.md` file with `applyTo` globs.
 */
export type InstructionKind = 'agents' | 'claude' | 'copilot' | 'scoped';

/** One instruction file of the workspace. */
export interface Instruction {
  kind: InstructionKind;
  /** Workspace-relative path, `/`-separated. */
  path: string;
  /** The folder it governs (`agents`, `claude`): workspace-relative, `''` for the root. */
  directory: string;
  /** `scoped` only: the workspace globs of the files it applies to (empty: it applies to no step on its own). */
  applyTo: string[];
  /** The front matter's `description`, when there is one (at most `maxDescriptionChars`). */
  description?: string;
  /** The text without front matter. */
  text: string;
  /** Size of the file in bytes. */
  bytes: number;
}

/** One Agent Skill (`<folder>/<name>/SKILL.md`). */
export interface Skill {
  /** Lowercase letters, digits and hyphens, at most `maxNameChars`; unique in the catalogue. */
  name: string;
  /** At most `maxDescriptionChars`. */
  description: string;
  /** Lowercased, at most `maxTags` of `maxTagChars` each. */
  tags: string[];
  /** Where it was read, for people: a workspace-relative path, or the user folder's label and the path in it. */
  source: string;
  /** Its folder as a workspace-relative path when it lies in the workspace (its other files can then be read with the file tools). */
  workspaceFolder?: string;
  /** The text of `SKILL.md` without front matter. */
  text: string;
  /** Size of `SKILL.md` in bytes. */
  bytes: number;
}

/** A convention file that could not be used, and why; `file` is how the user finds it. */
export interface CapabilityDiagnostic {
  file: string;
  message: string;
}

/**
 * The workspace's instructions and the skills the user and the workspace provide, with
 * what could not be read. Skills are unique by name; every text is bounded by
 * `capabilityLimits`.
 */
export interface CapabilityCatalogue {
  instructions: Instruction[];
  skills: Skill[];
  diagnostics: CapabilityDiagnostic[];
}

/** A catalogue with nothing in it: what a run without a host's catalogue uses. */
export const emptyCatalogue: CapabilityCatalogue = { instructions: [], skills: [], diagnostics: [] };
