import type * as vscode from 'vscode';
import type { RunOptions } from '../core/engine/runOptions';
import type { Tool } from '../core/tools/tool';
import type { AttachmentCheckUi } from './attachmentCheck';
import type { CheckCommandRules, ConfirmCheckCommands } from './checkCommandsAtStart';
import type { RunSetup } from './runSetup';
import type { ConfirmUndo } from './confirmUndo';

/** Everything the controller is built from (wired in `activate`). */
export interface RunControllerDeps {
  tools: () => readonly Tool[];
  interaction: RunOptions['interaction'];
  /**
   * The user for one execution, whose prompts are keyed by the run `runId()` names when it
   * asks (`VscodeInteraction.forRun`), so an answer reaches that run and no other folder's
   * run waiting on a step of the same id; default: `interaction`.
   */
  interactionFor?: (runId: () => string | undefined) => RunOptions['interaction'];
  log: vscode.LogOutputChannel;
  /** Workspace storage of the extension (`context.storageUri`); runs live in memory without it. */
  storageDir: string | undefined;
  /** What a run needs besides its plan, from the settings: read when each run starts or resumes. */
  setup: () => Promise<RunSetup>;
  /**
   * Makes `tools` complete before a run (a saved plan or a resumed run may call MCP tools without planning first: the
   * servers start once) and holds them until the run ends (the hold disposed): a change of their configuration
   * meanwhile stops none of the servers the run calls. Never rejects.
   */
  holdTools: () => Promise<vscode.Disposable>;
  /** Workspace state: remembers the executing run, so a run cut off by a reload is offered for resuming (see `interruptedRun`). */
  memento?: vscode.Memento;
  /** Asks what to do about a missing attachment before a run starts; default: a modal warning and the open-file dialog. */
  attachmentUi?: AttachmentCheckUi;
  /** Asks once at Start whether the plan's check commands may run (see `ConfirmCheckCommands`); default: a modal dialog. */
  confirmCheckCommands?: ConfirmCheckCommands;
  /** Asks before Undo takes back a run's changes; default: a modal dialog (`confirmUndoDialog`). */
  confirmUndo?: ConfirmUndo;
  /** The command allow rules: commands they allow run without asking, and are not asked about at Start. */
  commandRules?: CheckCommandRules;
}
