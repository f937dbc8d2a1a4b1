import type { z } from 'zod';
import type { CommandAllowList, CommandRunner } from '../commandPorts';
import type { Interaction, FileChangedInRun } from '../interactionPorts';
import type { CheckpointStore } from '../runStorePorts';
import type { Clock, Logger } from '../servicePorts';
import type { WorkspaceFs } from '../workspacePorts';

/**
 * What a tool does to the world; decides approvals and workspace-trust checks. `external`
 * is a tool another program runs (an MCP server, another extension's tool): it may do
 * anything, outside the run's checkpoints.
 */
export type ToolEffect = 'read' | 'write' | 'delete' | 'command' | 'network' | 'interaction' | 'external';

/** When file changes and commands ask the user first. Reads never ask. */
export type ApprovalPolicy = 'always' | 'writesAndCommands' | 'commandsOnly';

/** Everything a tool may use while it runs, scoped to one step of one run. */
export interface ToolContext {
  runId: string;
  stepId: string;
  stepTitle: string;
  workspace: WorkspaceFs;
  interaction: Interaction;
  approvalPolicy: ApprovalPolicy;
  clock: Clock;
  logger: Logger;
  /** Runs `run_command`'s processes; without one `run_command` fails with a clear message. */
  commandRunner?: CommandRunner;
  /** The user's command allow rules: a command one of them allows runs without asking. */
  allowedCommands?: CommandAllowList;
  /**
   * The files this run has changed so far (every step, read when asked), each with the
   * steps that changed it: a command whose defining file is among them asks, whatever
   * allowed it. Absent: outside a run, nothing changed.
   */
  filesChangedInRun?: () => readonly FileChangedInRun[];
  /**
   * The steps of this run that changed the workspace-relative `path`, have not failed or been skipped, and that this step
   * does not depend on, directly or through others (itself left out): a whole-file write by a step that never read the
   * file would drop a change they report made. Each with its title, for the refusal.
   * Absent: outside a run, nothing changed.
   */
  unrelatedChanges?: (path: string) => readonly { id: string; title: string }[];
  /**
   * When the run started, in milliseconds since the epoch (its clock): a command's defining file changed on disk since
   * (by a command of the run, which no step reports, or by another program) asks as a change by a step does
   * (`definingFilesChangedSince`). Absent: outside a run.
   */
  runStartedAt?: number;
  /**
   * Where file tools record the previous content before each change, so `undoRun` can
   * restore it; without one changes are applied but cannot be undone.
   */
  checkpoints?: CheckpointStore;
  /**
   * The files the step declared it would change (its `writes`): a change of another file
   * asks, whatever the approval policy. Absent: no declaration, nothing extra asks.
   */
  writeScope?: readonly string[];
  /**
   * What this attempt of the step last saw of each file (sha256 of its text, by
   * workspace-relative path): `read_file`, a write, and an edit of the version it saw record it. A whole-file write
   * over a file that changed since the step saw it is refused: it would drop the other
   * change. Absent: nothing is tracked.
   */
  seenVersions?: Map<string, string>;
  /** The step's journal of started commands; without one (a tool called outside a run) nothing is journaled. */
  commandLog?: CommandLog;
  /** Streams text (such as a command's output) to the step's live output. */
  output?: (text: string) => void;
  /**
   * Says where the step stands, one short line ("running npm test"), with how far the work says it is (0–100) when it says
   * so, never a guess; the latest replaces the one before.
   */
  progress?: (message: string, percent?: number) => void;
  /**
   * Told of each file a tool kept from the model (`withheldReason`: a credentials file, or inside `.git`), by its
   * workspace-relative path (where a link led): the run journals it, so its summary names the file. Absent outside a run.
   */
  withheld?: (path: string) => void;
}

/**
 * The commands a step starts, journaled before each starts, so a run resumed after a crash
 * knows which may already have run (a command that appends or deploys must not run twice
 * unasked).
 */
export interface CommandLog {
  /** `true` when this step started the same command (argv in cwd) before the run was interrupted. */
  mayHaveRun(argv: readonly string[], cwd: string): boolean;
  /** Journals that the command is starting; resolves once that is stored. */
  starting(argv: readonly string[], cwd: string): Promise<void>;
}

/**
 * A tool callable from a `tool` step or by an agent. `inputSchema` validates arguments
 * before `run` is called; `run` must honour `signal` and throw an `Error` with a message
 * fit for the user on failure.
 */
export interface Tool<Input = unknown, Output = unknown> {
  name: string;
  description: string;
  inputSchema: z.ZodType<Input>;
  /**
   * The input's JSON Schema as the tool's owner wrote it (an MCP server's or another
   * extension's tool), shown to models and to the review as is; without it the JSON Schema
   * is derived from `inputSchema` (see `toolParameters`). `inputSchema` still validates.
   */
  parameters?: Readonly<Record<string, unknown>>;
  effects: ToolEffect;
  run(ctx: ToolContext, input: Input, signal: AbortSignal): Promise<Output>;
  /**
   * The text of an output, its one text form (`toolResultText`): what an agent gets for its
   * call and what a later step gets where it expects text (a `"$<id>"` argument of a string
   * parameter). `read_file`'s is the file's content, an MCP tool's the server's text.
   * Without it the text is the output's compact JSON (`valueText`). Given what the journal
   * kept, so it must accept any value without throwing.
   */
  resultText?(output: unknown): string;
}

/** A set of tools by name. */
export interface ToolRegistry {
  names(): string[];
  get(name: string): Tool | undefined;
}
