import type { ToolEffect } from './tool';

/** What one tool effect means beyond approvals (which `needsApproval` decides under the approval policy). */
export interface EffectTraits {
  /**
   * The tool changes files or runs something: a step that calls it shows that it asks for
   * approval, and the critic warns when that approval is turned off.
   */
  changes: boolean;
  /** The tool writes, moves or deletes workspace files: an agent that has it changes files, and the critic wants its work checked. */
  changesFiles: boolean;
  /**
   * The tool can fail for reasons outside the plan and the workspace (a network, another
   * program's service): the critic warns when such a step is critical. A command is not: a
   * missing program, a usage error or a red test suite fail the same way again.
   */
  transient: boolean;
  /** Restricted Mode (an untrusted workspace) refuses the tool before it asks or acts. */
  needsTrust: boolean;
  /**
   * The tool's result is the user's own words (their answer to a question): an agent gets it as the user's reply, not as
   * untrusted data whose instructions it must not follow.
   */
  fromUser: boolean;
}

/**
 * The traits of every tool effect (docs/architecture.md §8): a tool declares its effect and
 * nothing else names it; a new effect needs an entry here, and the compiler says so.
 */
export const effectTraits: Readonly<Record<ToolEffect, EffectTraits>> = {
  // Stryker disable next-line ObjectLiteral: an empty entry reads as every trait false (undefined), which this entry is.
  read: { changes: false, changesFiles: false, transient: false, needsTrust: false, fromUser: false },
  write: { changes: true, changesFiles: true, transient: false, needsTrust: true, fromUser: false },
  delete: { changes: true, changesFiles: true, transient: false, needsTrust: true, fromUser: false },
  command: { changes: true, changesFiles: false, transient: false, needsTrust: true, fromUser: false },
  network: { changes: false, changesFiles: false, transient: true, needsTrust: true, fromUser: false },
  // What another program does is unknown: it may change anything, but not through the run's file tools (no checkpoint, no diff).
  external: { changes: true, changesFiles: false, transient: true, needsTrust: true, fromUser: false },
  // The user's answer (ask_user): a newcomer's answer reached the agent marked "not from the user", to be ignored.
  interaction: { changes: false, changesFiles: false, transient: false, needsTrust: false, fromUser: true },
};
