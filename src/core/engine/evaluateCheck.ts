import { RE2JS } from 're2js';
import type { Check } from '../plan/planSchema';
import type { CommandResult } from '../commandPorts';
import type { DiagnosticsSnapshot, EditorDiagnostic } from '../editorPorts';
import type { ApprovalRequest, FileChangedInRun, Interaction } from '../interactionPorts';
import { visibleControls } from '../../shared/visibleCharacters';
import { capText } from '../text/capText';
import { isApprovalRejectedError } from '../tools/approvals';
import { isDeferredError } from '../tools/deferral';
import { jsRegexToRe2 } from '../tools/jsRegexToRe2';
import type { CommandLog, ToolContext } from '../tools/tool';
import { refuseWithheldTarget, withheldRead } from '../tools/withheldFiles';
import { normalizeWorkspacePath, PathRefusedError } from '../workspace/resolveInRoot';
import { holdsPrivateKey, privateKeyReason } from '../workspace/credentialFiles';
import { isWorkspaceError } from '../workspace/workspaceError';
import { errorMessage } from '../../shared/errorMessage';
import { approvingCommands, consentedProgram, consentFor } from './checkCommandConsent';
import { StepFailure } from '../tools/stepFailure';
import type { CheckResult } from './runEvents';
import type { ResolvedRunOptions } from './runOptions';

/** A check's outcome (`detail` at most `maxDetailChars`), and whether another attempt of the step could change it (a refusal could not). */
export interface CheckVerdict extends CheckResult {
  retryable: boolean;
}

/** What checking needs from the step's run. */
export interface CheckEnvironment {
  runId: string;
  stepId: string;
  stepTitle: string;
  options: ResolvedRunOptions;
  /** The step's interaction: a check command the user did not allow at Start asks through it. */
  interaction: Interaction;
  /** Where a check command is journaled before it starts, and asked about when it may have run before an interruption. */
  commandLog: CommandLog;
  signal: AbortSignal;
  /** Workspace-relative paths the step changed so far (every attempt). */
  changedFiles(): readonly string[];
  /** The files the whole run changed so far, with the steps that changed each: a check command whose defining file is among them asks. */
  filesChangedInRun(): readonly FileChangedInRun[];
  /** When the run started (ms since the epoch): a check command's defining file changed on disk since asks too. */
  runStartedAt: number | undefined;
  /** The editor's errors before the step's first attempt; `undefined` without a `Diagnostics` port. */
  diagnosticsBefore: Promise<DiagnosticsSnapshot> | undefined;
}

/** Longest `detail` of a check, and the tail of a command's output it quotes. */
export const maxDetailChars = 2_000;
const outputTailChars = 1_500;
/** Largest file `file_contains` reads, in bytes. */
export const maxCheckedFileBytes = 4 * 1024 * 1024;
const maxListedErrors = 10;

/** The reason of the refusal a check command gets when its approval was deferred: checks never leave a step waiting. */
export const unansweredReason = 'nobody could answer now';
const notAllowedAtStart = 'not allowed: the check commands were declined when the run started';

/**
 * Runs one check against the workspace, the command runner or the editor's diagnostics.
 * Never throws for what it finds: a missing file, a refused path, a rejected command or
 * a failing one is a failed check whose `detail` says so (plain text, bounded).
 */
export async function evaluateCheck(check: Check, env: CheckEnvironment): Promise<CheckVerdict> {
  try {
    const verdict = await evaluateUnbounded(check, env);
    return { ...verdict, detail: capText(verdict.detail, maxDetailChars) };
  } catch (error) {
    const refused = error instanceof PathRefusedError || isApprovalRejectedError(error) || (error instanceof StepFailure && !error.retryable);
    return { kind: check.kind, passed: false, detail: capText(plainText(errorMessage(error)), maxDetailChars), retryable: !refused };
  }
}

async function evaluateUnbounded(check: Check, env: CheckEnvironment): Promise<CheckVerdict> {
  switch (check.kind) {
    case 'file_exists': {
      const stat = await env.options.workspace.stat(check.path, env.signal);
      if (stat === undefined) return failed(check, `${check.path} does not exist`);
      return passed(check, stat.type === 'directory' ? `${check.path} exists (a directory)` : `${check.path} exists`);
    }
    case 'file_absent': {
      const stat = await env.options.workspace.stat(check.path, env.signal);
      return stat === undefined ? passed(check, `${check.path} does not exist`) : failed(check, `${check.path} exists`);
    }
    case 'file_contains':
      return fileContains(check, env);
    case 'command':
      return commandCheck(check, env);
    case 'no_new_diagnostics':
      return diagnosticsCheck(check, env);
  }
}

async function fileContains(check: Extract<Check, { kind: 'file_contains' }>, env: CheckEnvironment): Promise<CheckVerdict> {
  if (check.text === undefined && check.pattern === undefined) return refusal(check, 'it names neither a text nor a pattern to look for');
  let matcher: RE2JS | undefined;
  if (check.pattern !== undefined) {
    try {
      // JavaScript's parser names syntax errors precisely; the pattern runs on RE2 only.
      new RegExp(check.pattern, 'm');
      matcher = RE2JS.compile(jsRegexToRe2(check.pattern), RE2JS.MULTILINE);
    } catch (error) {
      return refusal(check, `the pattern ${quote(check.pattern)} cannot be used: ${errorMessage(error)}`);
    }
  }
  // A check is an oracle: a model-written `^DB_PASSWORD=a` that passes or fails tells the model the secret a letter at a time.
  const withheld = await withheldRead(env.options.workspace, check.path, env.signal);
  if (withheld !== undefined) return refusal(check, `${check.path} is not read by checks: ${withheld.reason}`);
  let text: string;
  try {
    text = await env.options.workspace.readText(check.path, env.signal, { maxBytes: maxCheckedFileBytes, refuseTarget: refuseWithheldTarget() });
  } catch (error) {
    if (isWorkspaceError(error, 'not_found')) return failed(check, `${check.path} does not exist`);
    if (error instanceof PathRefusedError) return refusal(check, `${check.path} is not read by checks: ${error.reason}`);
    throw error;
  }
  if (holdsPrivateKey(text)) return refusal(check, `${check.path} is not read by checks: ${privateKeyReason}`);
  const missing: string[] = [];
  if (check.text !== undefined && !text.includes(check.text)) missing.push(`the text ${quote(check.text)}`);
  if (matcher !== undefined && !matcher.matcher(text).find()) missing.push(`a match of ${quote(check.pattern ?? '')}`);
  if (missing.length > 0) return failed(check, `${check.path} does not contain ${missing.join(' nor ')}`);
  return passed(check, `${check.path} contains what was asked`);
}

async function commandCheck(check: Extract<Check, { kind: 'command' }>, env: CheckEnvironment): Promise<CheckVerdict> {
  const { options } = env;
  const tool = options.tools.get('run_command');
  if (tool === undefined) return refusal(check, 'not available: this run has no run_command tool to run commands with');
  const cwd = check.cwd ?? '';
  const consent = consentFor(options.checkCommands, { argv: check.argv, cwd });
  if (consent === false) return refusal(check, notAllowedAtStart);
  // What an allowance given at Start did not cover, when the question went to the user after all.
  let forwarded: ApprovalRequest | undefined;
  const program = consentedProgram(options.checkCommands, { argv: check.argv, cwd });
  const ctx: ToolContext = {
    runId: env.runId,
    stepId: env.stepId,
    stepTitle: env.stepTitle,
    workspace: options.workspace,
    // Allowed at Start: the exact command runs without asking again.
    interaction: consent === true ? approvingCommands(env.interaction, program, (request) => (forwarded = request)) : env.interaction,
    approvalPolicy: options.approvalPolicy,
    clock: options.clock,
    logger: options.logger,
    ...(options.commandRunner ? { commandRunner: options.commandRunner } : {}),
    ...(options.allowedCommands ? { allowedCommands: options.allowedCommands } : {}),
    filesChangedInRun: () => env.filesChangedInRun(),
    commandLog: env.commandLog,
    ...(env.runStartedAt === undefined ? {} : { runStartedAt: env.runStartedAt }),
  };
  let result: CommandResult;
  try {
    result = (await tool.run(ctx, { argv: [...check.argv], cwd, allowFailure: true }, env.signal)) as CommandResult;
  } catch (error) {
    if (isDeferredError(error) || (isApprovalRejectedError(error) && error.reason === unansweredReason)) {
      const why = consent === true ? askedAfterStart(forwarded) : 'allow the check commands when the run starts';
      return refusal(check, `not run: it needs your approval and nobody could answer (${why})`);
    }
    if (isApprovalRejectedError(error)) return refusal(check, `not allowed: ${errorMessage(error)}`);
    throw error;
  }
  const expected = check.expectExitCode ?? 0;
  const output = plainText(`${result.stdout}${result.stdout && result.stderr ? '\n' : ''}${result.stderr}`).trim();
  const tail = output === '' ? 'no output' : `last output: ${output.length > outputTailChars ? `…${output.slice(-outputTailChars)}` : output}`;
  if (result.timedOut) return failed(check, `timed out after ${result.durationMs} ms and was stopped; ${tail}`);
  if (result.exitCode !== expected) {
    const how = result.exitCode === null ? `killed by ${result.signal ?? 'a signal'}` : `exit code ${result.exitCode}`;
    return failed(check, `${how}, expected ${expected}; ${tail}`);
  }
  if (check.outputContains !== undefined && !plainText(`${result.stdout}\n${result.stderr}`).includes(check.outputContains)) {
    return failed(check, `exit code ${expected} as expected, but the output does not contain ${quote(check.outputContains)}; ${tail}`);
  }
  return passed(check, `exit code ${result.exitCode ?? expected}`);
}

async function diagnosticsCheck(check: Extract<Check, { kind: 'no_new_diagnostics' }>, env: CheckEnvironment): Promise<CheckVerdict> {
  const diagnostics = env.options.diagnostics;
  if (diagnostics === undefined || env.diagnosticsBefore === undefined) {
    return refusal(check, "not available in the command line (it needs the editor's diagnostics), so it did not pass");
  }
  const paths = check.paths?.map((path) => normalizeWorkspacePath(path)) ?? env.changedFiles();
  if (paths.length === 0) return passed(check, 'no files to look at: the step changed none');
  const before = await env.diagnosticsBefore;
  const errors = await diagnostics.errorsSince(before, paths, env.signal);
  if (errors.length === 0) return passed(check, `no new errors in ${paths.join(', ')}`);
  const listed = errors.slice(0, maxListedErrors).map(describeError);
  const more = errors.length > maxListedErrors ? `; and ${errors.length - maxListedErrors} more` : '';
  return failed(check, `${errors.length} new error${errors.length === 1 ? '' : 's'}: ${listed.join('; ')}${more}`);
}

function describeError(error: EditorDiagnostic): string {
  return plainText(`${error.path}:${error.line} ${capText(error.message, 300)}${error.source ? ` (${error.source})` : ''}`);
}

/** Why a check command allowed at Start asked all the same (`request`, the question it asked), in the user's words. */
function askedAfterStart(request: ApprovalRequest | undefined): string {
  if (request?.kind === 'command' && request.changedInRun === undefined && request.helper !== undefined) {
    return `it would run ${request.helper.shown}, the workspace's own ${request.helper.name}, which is not what was allowed at Start`;
  }
  if (request?.kind === 'command' && request.changedInRun === undefined && request.program !== undefined) {
    return `it runs ${request.program.shown}, the workspace's own program, which is not what was allowed at Start`;
  }
  return 'this run changed a file that decides what it runs';
}

function passed(check: Check, detail: string): CheckVerdict {
  return { kind: check.kind, passed: true, detail, retryable: true };
}

function failed(check: Check, detail: string): CheckVerdict {
  return { kind: check.kind, passed: false, detail, retryable: true };
}

/** A failure another attempt of the step cannot change. */
function refusal(check: Check, detail: string): CheckVerdict {
  return { kind: check.kind, passed: false, detail, retryable: false };
}

function quote(text: string): string {
  return plainText(JSON.stringify(capText(text, 200)));
}

// Colour and cursor sequences, dropped whole.
const escapeSequences = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]/g;

/** Output as plain text: terminal escape sequences dropped, CRLF as LF, other control characters and text-direction controls shown as `\uXXXX`. */
export function plainText(text: string): string {
  // The direction controls are escaped too: a diagnosis is shown in the panel, the tree and notifications.
  return visibleControls(text.replace(escapeSequences, '').replace(/\r\n/g, '\n'));
}
