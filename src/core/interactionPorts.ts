import type { ProgramHelper, ProjectProgram } from './commandPorts';
import type { Attachment } from './plan/planSchema';

// The port of the user (`Interaction`): what a step asks them to allow, answer, review or do, and their answers.
// Every port of the core is in a `*Ports.ts` file at the root of src/core (docs/architecture.md, Ports).

/** A change to one file, shown to the user before it is applied. */
export interface FileProposal {
  path: string;
  /** `undefined` when the file does not exist yet. */
  currentText: string | undefined;
  /** `undefined` for a deletion. */
  proposedText: string | undefined;
  /** Unified diff of current → proposed. */
  diff: string;
  /** Where `path` really leads through symbolic links, when that differs from `path`. */
  resolvedPath?: string;
}

/**
 * Set by the engine on every request it passes on: the id of the pending request (see
 * `PendingRequest.id`). A UI that keeps a prompt around (a diff tab, a dialog) answers
 * with it, so an answer reaches only the request that was shown.
 */
interface RequestIdentity {
  requestId?: string;
}

/**
 * A workspace-relative file a run changed, and the steps that changed it (ids, in the order they first did); none when it
 * changed on disk since the run started without a step reporting it (a command's change, another program's).
 */
export interface FileChangedInRun {
  path: string;
  stepIds: readonly string[];
}

/** Which attempt of its step asks, when it is a retry: `attempt` of at most `of`, after one that failed with `lastError` (bounded). */
export interface RetryNote {
  attempt: number;
  of: number;
  lastError?: string;
}

/**
 * What a step asks the user to allow: a file change, a command, or a new directory. The
 * engine adds `retry` when a retry of the step asks (the question then says which attempt,
 * and why the one before failed); it is not part of what an answer is bound to.
 */
export type ApprovalRequest = RequestIdentity & {
  retry?: RetryNote;
  /**
   * Present when a model does the step's work (an agent step): a rejection's feedback is
   * told to it and it proposes again. Without it nobody would act on the words, so
   * "Reject with feedback…" is not offered; feedback given anyway is only the reason.
   */
  feedbackHeard?: true;
} &
  (
    | {
        kind: 'file';
        stepId: string;
        title: string;
        operation: 'write' | 'edit' | 'delete';
        proposal: FileProposal;
        /** Present when the file lies outside the files the step declared it would change (its `writes`): such a change asks under every policy. */
        outsideScope?: true;
        /**
         * Present when this step was changing this file when the run was interrupted, and the file is now neither as it
         * was before nor as that change left it (someone wrote it since): the change may already be in it, so no rule,
         * policy or blanket yes answers this, as a command that may have run.
         */
        interrupted?: true;
      }
    | {
        kind: 'command';
        stepId: string;
        title: string;
        argv: string[];
        cwd: string;
        shell: boolean;
        /** Present when the step started this same command before the run was interrupted: it may already have run, and no rule or blanket yes answers it. */
        mayHaveRun?: true;
        /**
         * Present when this run changed a file that defines what the command does (its
         * `package.json`, its Makefile, the script it runs: see `commandDefiningFiles`),
         * each with the steps that changed it: no allow rule and no allowance given at
         * Start answers it (`--yes` does).
         */
        changedInRun?: FileChangedInRun[];
        /**
         * Present when `argv[0]` is found in one of the project's own program folders (a
         * Python virtual environment, `node_modules/.bin`) rather than on `PATH`: the file
         * that runs. An allow rule made for the program on `PATH` does not answer it.
         */
        program?: ProjectProgram;
        /**
         * Present when `argv[0]` is a program that runs a helper named after its subcommand
         * from `PATH` (`git lfs` runs `git-lfs`, `cargo fmt` runs `cargo-fmt`) and the helper
         * for this one is found in the project's own program folders: the file that would
         * run. No allow rule answers it.
         */
        helper?: ProgramHelper;
        /**
         * Present when the program is git and the repository's own configuration makes git run programs for this
         * command (its diff drivers, filters, hooks…: `CommandRunner.describeRepositoryPrograms`), each in the user's
         * words. No allow rule answers it, and git does not start when the repository names others by then.
         */
        repositoryPrograms?: string[];
        /**
         * The text given to the command on its standard input, in full (the question shows
         * its start and size; the fingerprint covers all of it). No allow rule answers a
         * command given input: the rule names the command, not what it is fed.
         */
        stdin?: string;
        /** Present when an allow rule nearly allowed the command: why it does not ("the rule "git status" does not cover --output=x, which …"). */
        notAllowedBecause?: string;
        /**
         * Present when a rule of the command's exact words would not allow it where it runs (a relative program, `./run.sh`, is
         * allowed only in the workspace folder itself): such a rule would allow another file, never this one, so none is offered.
         */
        noRuleHere?: true;
      }
    | { kind: 'directory'; stepId: string; title: string; path: string }
    /**
     * A call of a tool another program runs, or one that reaches the network: `source`
     * names who runs it ("MCP server \"db\""), `input` is the arguments as the tool gets them.
     * `rememberAs`, when present, is the key under which a host may remember the user's
     * "allow every call of this tool here from now on" (the tool's owner then stops asking).
     */
    | { kind: 'tool'; stepId: string; title: string; tool: string; source: string; input: unknown; rememberAs?: string }
  );

/** The user's answer to an approval request. */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
  /**
   * With a rejection, what the user asks the step to do instead (Reject with feedback…): a
   * step's agent is told and proposes again within the step, up to its attempts; a step that
   * cannot propose again treats it as the rejection's reason. The engine bounds it and makes
   * it safe (`boundedFeedback`) before it goes anywhere.
   */
  feedback?: string;
}

/** A question a step asks; `suggestions` are offered as quick answers. */
export interface ClarificationRequest extends RequestIdentity {
  stepId: string;
  title: string;
  question: string;
  suggestions?: string[];
}

/** A `human_review` step's request: approve or reject what was produced so far. */
export interface ReviewRequest extends RequestIdentity {
  stepId: string;
  title: string;
  prompt: string;
}

/** The user's review decision; `notes` become part of the step result. */
export interface ReviewDecision {
  approved: boolean;
  notes?: string;
}

/**
 * A `manual` step's request: a person does the work. `instructions` is the step's input
 * with its templates resolved (else its title); `attachments` name the request's files
 * and selections; `depends` holds each direct dependency's result as text, by step id,
 * each at most `manualResultPreviewLength` characters.
 */
export interface ManualStepRequest extends RequestIdentity {
  stepId: string;
  title: string;
  instructions: string;
  attachments: Attachment[];
  depends: Record<string, string>;
  /** The step's checks in plain words, one line each (`describeCheck`): they run once the person says it is done. */
  checks: string[];
}

/** What the person says about a manual step: done (the note becomes the result), or not done and why. */
export type ManualStepOutcome = { done: true; note?: string } | { done: false; reason: string };

/**
 * The user. Every method may resolve to `'defer'` when nobody can answer now
 * (a non-interactive run); the engine then suspends that step and the run ends `waiting`.
 */
export interface Interaction {
  requestApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision | 'defer'>;
  // 'defer' is one of the strings, named so the reader sees the answer that parks the request.
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
  askClarification(request: ClarificationRequest, signal: AbortSignal): Promise<string | 'defer'>;
  requestReview(request: ReviewRequest, signal: AbortSignal): Promise<ReviewDecision | 'defer'>;
  /** Waits until the person marked the step done or failed; may take as long as the work does. */
  requestManualStep(request: ManualStepRequest, signal: AbortSignal): Promise<ManualStepOutcome | 'defer'>;
}
