import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { appendFile, lstat, mkdir, open, readdir, realpath, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { RunResult } from '../core/engine/runOptions';
import { runStatusLabel } from '../shared/runStatusLabels';
import { actionSummary, requestWords } from './actionSummary';
import { loadListedJournal, runsDirectory } from './cliIo';
import { replayJournal } from '../core/engine/replayJournal';
import { createFileRunStore } from '../node/fileRunStore';
import { parseAllowRule } from './cliAllowRules';
import { errorMessage } from '../shared/errorMessage';
import { leadsOutside } from '../shared/leadsOutside';
import { visibleControls } from '../shared/visibleCharacters';

/** What the CLI child returned: its exit code and standard output (progress went to the job log). */
export interface CliOutcome {
  code: number;
  stdout: string;
  /** The end of its error stream, for a run that could not start. */
  stderrTail: string;
}

/** Starts the CLI with `args` and `env` (no terminal: nothing can be asked) and resolves when it ends. */
export type CliStarter = (args: readonly string[], env: Readonly<Record<string, string>>) => Promise<CliOutcome>;

/** The action's inputs, as `action.yml` declares them. */
export const actionInputNames = [
  'plan',
  'workspace',
  'allow-commands',
  'allow-file-changes',
  'dangerously-approve-everything',
  'model',
  'base-url',
  'api-key',
  'journal-dir',
  'trace-endpoint',
] as const;

type ActionInput = (typeof actionInputNames)[number];

/**
 * The GitHub Action's entry point: runs the plan file `plan` headless with the CLI in the
 * workspace, and reports as a workflow expects. Nothing that would ask is done unless the
 * workflow allows it: `allow-commands` (allow rules, one a line, checked before anything
 * starts), `allow-file-changes`, or `dangerously-approve-everything` (the CLI's `--yes`);
 * anything else makes the run stop `waiting`, and the job summary says what it wanted.
 * Writes the job summary to `GITHUB_STEP_SUMMARY`; `status`, `run-id`, `changed-files`
 * (one a line) and `journal-dir` to `GITHUB_OUTPUT`; copies the run's journal files
 * (new or changed during the run) to `journal-dir`. Resolves to the CLI's exit code
 * (0 completed, 1 failed, 2 not started, 3 waiting, 4 cancelled, 5 partly done).
 */
export async function runGithubAction(env: Readonly<Record<string, string | undefined>>, startCli: CliStarter, log: (line: string) => void): Promise<number> {
  const input = (name: ActionInput): string => (env[`INPUT_${name.toUpperCase()}`] ?? env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`] ?? '').trim();
  const flag = (name: ActionInput): boolean => {
    const value = input(name).toLowerCase();
    if (value === '' || value === 'false') return false;
    if (value === 'true') return true;
    throw new ActionInputError(`The input ${name} must be true or false, got "${value}".`);
  };
  const githubWorkspace = env['GITHUB_WORKSPACE'] ?? process.cwd();
  try {
    const plan = input('plan');
    if (plan === '') throw new ActionInputError('The input plan is required: the plan file (a plan JSON, or a tasks file) to run.');
    const workspace = await checkoutFolder(githubWorkspace, input('workspace'));
    const journalDir = resolve(githubWorkspace, input('journal-dir') || join(env['RUNNER_TEMP'] ?? workspace, 'task-planner-journal'));
    if (input('journal-dir') !== '') await requireNoLink(journalDir, 'journal-dir');
    const rules = input('allow-commands')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    // A refused rule stops the action before anything runs, naming the rule and its line of the input.
    rules.forEach((rule, index) => {
      try {
        parseAllowRule(rule);
      } catch (error) {
        const problem = errorMessage(error).replace(/^--allow-command:? /, '');
        throw new ActionInputError(`The input allow-commands, rule ${index + 1}: ${problem}`);
      }
    });
    const planFile = isAbsolute(plan) ? plan : resolve(workspace, plan);
    if (!(await isFile(planFile))) throw new ActionInputError(`The input plan names ${plan}, which is not a file (looked for ${planFile}).`);
    const args = ['run', planFile, '--workspace', workspace, '--json'];
    for (const rule of rules) args.push('--allow-command', rule);
    if (flag('allow-file-changes')) args.push('--allow-file-changes');
    if (flag('dangerously-approve-everything')) {
      log('::warning title=Task Planner::dangerously-approve-everything is on: every file change, command and tool call of the plan runs without asking.');
      args.push('--yes');
    }
    if (input('model') !== '') args.push('--model', input('model'));
    if (input('base-url') !== '') args.push('--base-url', input('base-url'));
    if (input('trace-endpoint') !== '') args.push('--trace-endpoint', input('trace-endpoint'));
    const childEnv = cliEnvironment(env, input('api-key'));
    const runs = runsDirectory(workspace);
    const before = await journalFiles(runs);
    const outcome = await startCli(args, childEnv);
    const result = parseRunResult(outcome.stdout);
    const changedFiles = result === undefined ? [] : changedFilesOf(result);
    const copied = await copyJournal(runs, before, journalDir);
    // The command line's own pointer to its usage means nothing in a workflow.
    const message = outcome.stderrTail.replace(/^Run "task-planner --help" for the usage\.\n?/m, '');
    const titles = result === undefined ? new Map<string, string>() : await stepTitlesOf(runs, result.runId);
    await writeSummary(env, actionSummary(result ?? { code: outcome.code, message }, changedFiles, titles));
    await writeOutputs(env, {
      status: result?.status ?? 'error',
      'run-id': result?.runId ?? '',
      'changed-files': changedFiles.join('\n'),
      'journal-dir': journalDir,
      'exit-code': String(outcome.code),
    });
    const ended = result === undefined ? `the plan did not run (exit code ${outcome.code})` : `run ${result.runId} ${result.status}`;
    // On one line: a journal-dir input holding a line break then "::" issued a workflow command of its own (attack).
    log(logLineText(`Task Planner: ${ended}; ${copied} journal file${copied === 1 ? '' : 's'} in ${journalDir}.`));
    const annotation = endAnnotation(result, outcome.code);
    if (annotation !== undefined) log(`::error title=Task Planner::${workflowCommandText(annotation)}`);
    return outcome.code;
  } catch (error) {
    const message = errorMessage(error);
    log(`::error title=Task Planner::${workflowCommandText(message)}`);
    await writeSummary(env, actionSummary({ code: 2, message }, []));
    // Nothing ran, so no journal folder was made: an empty output rather than a folder that is not there.
    await writeOutputs(env, { status: 'error', 'run-id': '', 'changed-files': '', 'journal-dir': '', 'exit-code': '2' });
    return 2;
  }
}

/**
 * The error annotation of a run that did not end completed, or `undefined`: the workflow run's page shows it without opening
 * the log (a newcomer found one only for a waiting run; a failed or partly done one had none).
 */
function endAnnotation(result: RunResult | undefined, code: number): string | undefined {
  if (result === undefined) return `The plan did not run (exit code ${code}). See the job summary.`;
  switch (result.status) {
    case 'completed':
      return undefined;
    case 'waiting': {
      const requests = (result.pending ?? []).map((request) => `${request.stepId} (${requestWords[request.kind]})`).join(', ');
      return `The run is waiting for what it was not given: ${requests}. See the job summary.`;
    }
    default: {
      const failed = Object.values(result.steps).filter((step) => step.status === 'failed' || step.skipCause === 'failed').map((step) => step.id);
      const steps = failed.length === 0 ? '' : ` (failed: ${failed.slice(0, 10).join(', ')}${failed.length > 10 ? ', …' : ''})`;
      return `Run ended: ${runStatusLabel(result.status, Object.values(result.steps))}${steps}. See the job summary.`;
    }
  }
}

/**
 * Refuses an input folder that leads elsewhere through a link: a repository's committed `journal -> .git` had the journal
 * written into `.git`, which the workflow then uploads (attack). Judged on the deepest part of the path that exists.
 */
async function requireNoLink(path: string, name: ActionInput): Promise<void> {
  let existing = path;
  while (!(await lstat(existing).then(() => true, () => false)) && dirname(existing) !== existing) existing = dirname(existing);
  const real = await realpath(existing).catch(() => existing);
  if (real !== existing) throw new ActionInputError(`The input ${name} leads through a link (${existing} is ${real}); name a folder of its own.`);
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((found) => found.isFile(), () => false);
}

/** An input the action cannot use; nothing was started. */
class ActionInputError extends Error {}

/**
 * The `workspace` input as a folder inside the checkout (`GITHUB_WORKSPACE`), judged where it leads: a repository's
 * committed link (`sub -> ../../_temp/_runner_file_commands`) took a run into the runner's own files (its `set_env_…`).
 */
async function checkoutFolder(githubWorkspace: string, given: string): Promise<string> {
  const workspace = resolve(githubWorkspace, given || '.');
  const [real, checkout] = await Promise.all([realpath(workspace), realpath(githubWorkspace)]).catch(() => {
    throw new ActionInputError(`The input workspace "${given}" is not a folder that exists in ${githubWorkspace}.`);
  });
  const path = relative(checkout, real);
  if (leadsOutside(path) || isAbsolute(path)) {
    throw new ActionInputError(`The input workspace "${given}" leads outside the checkout (${githubWorkspace}) to ${real}; name a folder inside it.`);
  }
  return workspace;
}

/**
 * The CLI's environment: the job's, without the action's inputs (the key among them),
 * with the `api-key` input as `OPENAI_API_KEY` when given.
 */
function cliEnvironment(env: Readonly<Record<string, string | undefined>>, apiKey: string): Record<string, string> {
  const childEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !name.startsWith('INPUT_')) childEnv[name] = value;
  if (apiKey !== '') childEnv['OPENAI_API_KEY'] = apiKey;
  return childEnv;
}

function parseRunResult(stdout: string): RunResult | undefined {
  try {
    const value = JSON.parse(stdout) as Partial<RunResult> | null;
    const isResult = value !== null && typeof value === 'object' && typeof value.runId === 'string' && typeof value.status === 'string';
    return isResult ? (value as RunResult) : undefined;
  } catch {
    return undefined;
  }
}

/** Every file a step of the run changed, in step order, each once. */
function changedFilesOf(result: RunResult): string[] {
  return [...new Set(Object.values(result.steps).flatMap((step) => step.filesChanged ?? []))];
}

/**
 * The journal files in `dir` (`<runId>.jsonl`, `<runId>.snapshot.json`) with their modification times: files of their own
 * only, never a link (a repository's `runs/cfg.jsonl -> ../../.git/config` was copied, checkout token and all, into the
 * artifact; a dangling one made a completed run report "error"), nor a file of several names.
 */
async function journalFiles(dir: string): Promise<Map<string, number>> {
  const files = new Map<string, number>();
  let names: string[];
  try {
    // The runs folder and the folder holding it are folders of the workspace, not links (the CLI refuses to run then).
    const folders = await Promise.all([lstat(dirname(dir)), lstat(dir)]);
    if (!folders.every((folder) => folder.isDirectory())) return files;
    names = await readdir(dir);
  } catch {
    return files;
  }
  for (const name of names) {
    if (!name.endsWith('.jsonl') && !name.endsWith('.snapshot.json')) continue;
    const info = await lstat(join(dir, name)).catch(() => undefined);
    if (info?.isFile() && info.nlink === 1) files.set(name, info.mtimeMs);
  }
  return files;
}

/**
 * Copies the journal files written since `before` (the run's and its repair runs') to `target`; resolves to how many. Each
 * is opened without following a link, so one swapped for a link after it was listed is not copied either.
 */
/** The titles of run `runId`'s steps by id, as its journal holds its plan; none when the journal cannot be read. */
async function stepTitlesOf(runs: string, runId: string): Promise<Map<string, string>> {
  try {
    const state = replayJournal(runId, await loadListedJournal(createFileRunStore(runs), runId));
    return new Map((state.plan?.steps ?? []).map((step) => [step.id, step.title]));
  } catch {
    // The summary then names each step by its id alone, as the command line's result does.
    return new Map();
  }
}

async function copyJournal(dir: string, before: ReadonlyMap<string, number>, target: string): Promise<number> {
  const after = await journalFiles(dir);
  const written = [...after].filter(([name, time]) => before.get(name) !== time).map(([name]) => name);
  await mkdir(target, { recursive: true });
  let copied = 0;
  for (const name of written) {
    const file = await open(join(dir, name), constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
    if (file === undefined) continue;
    try {
      const info = await file.stat();
      if (!info.isFile() || info.nlink !== 1) continue;
      await writeFile(join(target, name), await file.readFile());
      copied++;
    } finally {
      await file.close();
    }
  }
  return copied;
}

async function writeSummary(env: Readonly<Record<string, string | undefined>>, markdown: string): Promise<void> {
  const file = env['GITHUB_STEP_SUMMARY'];
  if (file) await appendFile(file, markdown, 'utf8');
}

/** Appends `outputs` to `GITHUB_OUTPUT` in its multi-line form, each value between delimiters it cannot contain. */
async function writeOutputs(env: Readonly<Record<string, string | undefined>>, outputs: Readonly<Record<string, string>>): Promise<void> {
  const file = env['GITHUB_OUTPUT'];
  if (!file) return;
  const text = Object.entries(outputs)
    .map(([name, value]) => {
      const delimiter = `ghadelimiter_${randomUUID()}`;
      return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
    })
    .join('');
  await appendFile(file, text, 'utf8');
}

/**
 * `text` as one line of the job log: line breaks (the runner starts a line at a CR as at an LF) and every other control
 * written as escapes, so no part of it begins a line the runner would read as a workflow command (`::…`, `##[…`).
 */
export function logLineText(text: string): string {
  return visibleControls(text).replace(/\n/g, '\\n');
}

/** `text` as a workflow command's message: `%`, CR and LF escaped as GitHub reads them back. */
export function workflowCommandText(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
