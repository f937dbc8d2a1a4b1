/**
 * The plan's and the run's vocabulary, declared once for the core, the editor, the CLI and
 * the webview (docs/architecture.md §3, §4). Every other list, union, zod enum and label
 * table of these names derives from the tuples here; per-name facts live in exhaustive
 * `Record<…>` maps beside their users, so adding a name makes the compiler list every place
 * that needs a decision. `test/arch/vocabulary.test.ts` keeps literal lists of these names
 * out of every other file.
 */

/**
 * What a step is, which decides who does its work: `tool` calls one tool, `agent` and
 * `synthesis_gate` ask a model, `human_review` and `clarification` ask the user, `manual`
 * is work a person does and marks done.
 */
export const stepKinds = ['tool', 'agent', 'synthesis_gate', 'human_review', 'clarification', 'manual'] as const;
/** A step kind. */
export type StepKind = (typeof stepKinds)[number];

/** What happens when a step's attempts are used up or its verification fails. */
export const failurePolicies = ['stop', 'skip', 'retry', 'replan'] as const;
/** A failure policy. */
export type FailurePolicy = (typeof failurePolicies)[number];

/**
 * A step's lifecycle in a run: `pending` (no dependencies) or `blocked` (waiting on
 * dependencies) → `ready` → `running` → `completed` | `failed` | `skipped`, with the
 * `awaiting_*` statuses while the step waits on the user (`awaiting_user`: a person is
 * doing the step's work; `awaiting_budget`: paused before its next model call until a resume
 * with a higher budget).
 */
export const stepStatuses = [
  'pending',
  'blocked',
  'ready',
  'running',
  'awaiting_approval',
  'awaiting_clarification',
  'awaiting_review',
  'awaiting_user',
  'awaiting_budget',
  'completed',
  'failed',
  'skipped',
] as const;
/** A step's status in a run. */
export type StepStatus = (typeof stepStatuses)[number];

/**
 * Why a step was skipped: its own attempts `failed` and its failure policy let the run go
 * on; the user `rejected` what it asked; a step it depends on did not complete
 * (`dependency`); a critical step `halted` the run; the `plan` skips it (the review's
 * Skip); its task was ticked in the task file it was imported from (`source`: done there);
 * its `condition` (`when`) was not met. Only the last three are as planned.
 */
export const skipCauses = ['failed', 'rejected', 'dependency', 'halted', 'plan', 'source', 'condition'] as const;
/** Why a step was skipped. */
export type SkipCause = (typeof skipCauses)[number];

/**
 * A run's status; `waiting` means suspended on pending requests, `interrupted` stopped
 * because its host went away (the editor reloaded), not by the user; both resume, as does `cancelled`.
 * `completed`: every step is done (or skipped as planned: by the plan or its condition);
 * `partial`: the run went through to its end, but some steps failed or were skipped (see
 * `skipCauses`), so not all of its work is done; `failed`: it halted, or a step failed
 * without its policy letting the run go on past it.
 */
export const runStatuses = ['running', 'waiting', 'completed', 'partial', 'failed', 'cancelled', 'interrupted'] as const;
/** A run's status. */
export type RunStatus = (typeof runStatuses)[number];
/** The statuses of a run stopped before its end, by the user or by its host going away: it resumes from where it stopped. */
export const stoppedRunStatuses = ['cancelled', 'interrupted'] as const satisfies readonly RunStatus[];
/** A run stopped before its end (`stoppedRunStatuses`). */
export type StoppedRunStatus = (typeof stoppedRunStatuses)[number];

/**
 * The kinds of user requests a step can wait on. `budget`: the run's LLM budget is used
 * up and the user decides whether to continue with higher limits; `manual`: a person does
 * the step's work and marks it done or failed.
 */
export const requestKinds = ['approval', 'clarification', 'review', 'budget', 'manual'] as const;
/** A kind of user request. */
export type RequestKind = (typeof requestKinds)[number];


/**
 * What a step's host-run check looks at after the step's work (docs/architecture.md §4):
 * a file's presence or absence, a file's text, a command's exit code and output, or
 * error diagnostics that appeared in the editor since the step started.
 */
export const checkKinds = ['file_exists', 'file_absent', 'file_contains', 'command', 'no_new_diagnostics'] as const;
/** A kind of check. */
export type CheckKind = (typeof checkKinds)[number];

/**
 * What a step will do about approval when it runs, as the review shows it: its tool asks
 * before it acts (`asks`), its agent has tools that ask if called (`mayAsk`), Restricted
 * Mode refuses its tool (`refused`), or nothing (`none`).
 */
export const stepApprovals = ['asks', 'mayAsk', 'refused', 'none'] as const;
/** What a step will do about approval. */
export type StepApproval = (typeof stepApprovals)[number];

/** Longest step id accepted; ids are shown in trees and used as template keys. */
export const maxStepIdLength = 64;

/** The most names a list of skills or context tags keeps, and the longest name, in characters. */
export const maxListedNames = 32;
export const maxListedNameLength = 64;
/** Most patterns in a step's `writes` (the files it may change), and most characters in one. */
export const maxWritePatterns = 50;
export const maxWritePatternLength = 300;
/** Most checks one step may carry: a few show that a step worked; thousands only slow every run down. */
export const maxChecksPerStep = 50;
/** One character a step id may hold in the panel's form and in `$<id>` references, as a regular-expression class. */
export const stepIdCharacter = '[A-Za-z0-9_.:-]';
/** A step id the panel's form accepts (the core accepts any text up to `maxStepIdLength`, as planners write it). */
export const stepIdPattern = new RegExp(`^${stepIdCharacter}+$`);
/**
 * What no step id may hold, in the core either: a line break, a control or an invisible character (an id is printed
 * wherever its step is named; one forged a line of the CLI's progress).
 */
export const unprintableInStepId = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** The Unicode controls that reorder how the text after them is shown (bidi embeddings, overrides, isolates and marks), as a character-class body. */
export const directionControlClass = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';

/**
 * A character a text view or a terminal acts on instead of showing (C0 and C1 controls, DEL,
 * the text-direction controls): names of skills and topics may not hold one.
 */
export const actingCharacter = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${directionControlClass}]`);

/** A skill's name: lowercase letters and digits in words joined by single hyphens (`release-notes`). */
export const skillNamePattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/**
 * `true` for a step id no plan may use: step ids key plain objects (results, step states,
 * template values), where `__proto__` names the prototype instead of a key, so a step so
 * called would run and then vanish from its run.
 */
export function isReservedStepId(id: string): boolean {
  return id === '__proto__';
}
/** A run id safe as a file name: what run stores accept and the editor deletes. */
export const runIdPattern = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
