import { parseArgs, type ParseArgsConfig } from 'node:util';
import { withoutSecrets } from '../node/commandEnvironment';
import { takeFromEnvironment } from '../node/takeFromEnvironment';
import { type CliIo, requireWorkspace, terminalIo, UsageError } from './cliIo';
import { helpText } from './helpText';
import { planCommand } from './planCommand';
import { type CliAnswers, resumeCommand } from './resumeCommand';
import { rerunCommand } from './rerunCommand';
import { runCommand } from './runCommand';
import { runsCommand } from './runsCommand';
import { undoCommand } from './undoCommand';
import { validateCommand } from './validateCommand';
import { withCliMcp } from './cliMcp';
import { toolsCommand } from './toolsCommand';
import { exportCommand, importCommand } from './taskFileCommands';
import { cliModel } from './cliModel';
import { traceCommand } from './traceCommand';
import { errorMessage } from '../shared/errorMessage';
import { boundedFeedback } from '../core/tools/approvalFeedback';
import { textArguments } from './textArguments';
import { parseErrorMessage } from './unknownOption';
import { checkOptionScope } from './optionScope';

declare const TASK_PLANNER_VERSION: string | undefined;

/** Every option of every command (`optionScope` says which commands read which). */
const cliOptions = {
  workspace: { type: 'string' },
  run: { type: 'string' },
  concurrency: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'planner-model': { type: 'string' },
  'agent-model': { type: 'string' },
  'reviewer-model': { type: 'string' },
  'compaction-model': { type: 'string' },
  strategy: { type: 'string' },
  'max-requests': { type: 'string' },
  'max-tokens': { type: 'string' },
  'max-cost': { type: 'string' },
  'max-replans': { type: 'string' },
  'max-replan-attempts': { type: 'string' },
  'replan-cooldown': { type: 'string' },
  timeout: { type: 'string' },
  'mcp-config': { type: 'string' },
  'mcp-timeout': { type: 'string' },
  'allow-insecure-key': { type: 'boolean', default: false },
  'model-critique': { type: 'boolean', default: false },
  'investigate-calls': { type: 'string' },
  'investigate-tokens': { type: 'string' },
  'investigate-seconds': { type: 'string' },
  yes: { type: 'boolean', short: 'y', default: false },
  json: { type: 'boolean', default: false },
  'allow-hard-links': { type: 'boolean', default: false },
  tick: { type: 'boolean', default: false },
  'review-critical-steps': { type: 'boolean', default: false },
  'allow-command': { type: 'string', multiple: true },
  'allow-file-changes': { type: 'boolean', default: false },
  'budget-from-estimate': { type: 'boolean', default: false },
  'trace-endpoint': { type: 'string' },
  'trace-content': { type: 'boolean', default: false },
  trace: { type: 'string' },
  approve: { type: 'string', multiple: true },
  reject: { type: 'string', multiple: true },
  answer: { type: 'string', multiple: true },
  'accept-review': { type: 'string', multiple: true },
  'reject-review': { type: 'string', multiple: true },
  done: { type: 'string', multiple: true },
  failed: { type: 'string', multiple: true },
  from: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', default: false },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/**
 * Runs the command line `argv` (without node and script); resolves to the exit code. `env`
 * is where the API key is read from (`OPENAI_API_KEY`, else `TASK_PLANNER_API_KEY`).
 */
export async function main(argv: readonly string[], io: CliIo, env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  let parsed;
  const text = textArguments(argv);
  try {
    parsed = parseArgs({
      args: text.args,
      allowPositionals: true,
      options: cliOptions,
    });
  } catch (error) {
    io.err(`${parseErrorMessage(error, Object.keys(cliOptions))}\nRun "task-planner --help" for the usage.`);
    return 2;
  }
  const { values, positionals } = text.restore(parsed);
  const [command, target, ...extra] = positionals;
  if (values.help || command === 'help') {
    io.out(helpText);
    return 0;
  }
  if (values.version) {
    io.out(typeof TASK_PLANNER_VERSION === 'string' ? TASK_PLANNER_VERSION : 'development');
    return 0;
  }
  try {
    if (extra.length > 0) throw new UsageError(`Unexpected arguments: ${extra.join(' ')}.`);
    checkOptionScope(command, values);
    const workspace = values.workspace ?? process.cwd();
    const runOptions = {
      workspace,
      concurrency: parseConcurrency(values.concurrency),
      yes: values.yes,
      json: values.json,
      allowHardLinks: values['allow-hard-links'],
      tick: values.tick,
      reviewCriticalSteps: values['review-critical-steps'],
      baseUrl: values['base-url'],
      model: values.model,
      roleModels: {
        planner: values['planner-model'],
        agent: values['agent-model'],
        reviewer: values['reviewer-model'],
        compaction: values['compaction-model'],
      },
      env,
      maxRequests: values['max-requests'],
      maxTokens: values['max-tokens'],
      maxCost: values['max-cost'],
      maxReplans: values['max-replans'],
      maxReplanAttempts: values['max-replan-attempts'],
      replanCooldown: values['replan-cooldown'],
      timeout: values.timeout,
      allowInsecureKey: values['allow-insecure-key'],
      strategy: values.strategy,
      allowCommands: values['allow-command'],
      allowFileChanges: values['allow-file-changes'],
      budgetFromEstimate: values['budget-from-estimate'],
      traceEndpoint: values['trace-endpoint'],
      traceContent: values['trace-content'],
    };
    if (command !== undefined && workspaceCommands.has(command)) await requireWorkspace(workspace);
    const mcpOptions = {
      workspace,
      mcpConfig: values['mcp-config'],
      mcpTimeout: values['mcp-timeout'],
      yes: values.yes,
      allowHardLinks: values['allow-hard-links'],
      env,
    };
    switch (command) {
      case 'plan': {
        const request = required(target?.trim(), 'plan needs a request: task-planner plan "<what you want done>"');
        return await withCliMcp(mcpOptions, io, (extraTools) =>
          planCommand(
            request,
            {
              ...runOptions,
              extraTools,
              modelCritique: values['model-critique'],
              investigateCalls: values['investigate-calls'],
              investigateTokens: values['investigate-tokens'],
              investigateSeconds: values['investigate-seconds'],
              answers: cliAnswers(values).answers,
            },
            io,
          ),
        );
      }
      case 'validate': {
        const file = required(target, 'validate needs a plan file: task-planner validate <plan.json>');
        const skillsOf = values.workspace;
        if (skillsOf !== undefined) await requireWorkspace(skillsOf);
        return await withCliMcp(mcpOptions, io, (extraTools) =>
          validateCommand(file, values.json, io, { extraTools, ...(skillsOf !== undefined ? { workspace: skillsOf } : {}) }),
        );
      }
      case 'run': {
        const file = required(target, 'run needs a plan file: task-planner run <plan.json>');
        return await withCliMcp(mcpOptions, io, (extraTools) => runCommand(file, { ...runOptions, extraTools }, io));
      }
      case 'import': {
        const file = required(target, 'import needs a tasks file: task-planner import <tasks.md> [--format F] [--out plan.json]');
        return await importCommand(file, { format: values.format, out: values.out, model: cliModel(runOptions) !== undefined }, io);
      }
      case 'export': {
        const file = required(target, 'export needs a plan file: task-planner export <plan.json> --format F');
        const run = values.run === undefined ? undefined : { runId: values.run, workspace };
        return await exportCommand(file, { format: values.format, out: values.out, model: false }, io, run);
      }
      case 'resume': {
        const runId = required(target, 'resume needs a run id: task-planner resume <runId> (list them with "task-planner runs")');
        const answers = cliAnswers(values);
        return await withCliMcp(mcpOptions, io, (extraTools) => resumeCommand(runId, answers, { ...runOptions, extraTools }, io));
      }
      case 'rerun': {
        const runId = required(target, 'rerun needs a run id: task-planner rerun <runId> --from STEP (list them with "task-planner runs")');
        return await withCliMcp(mcpOptions, io, (extraTools) => rerunCommand(runId, values.from, { ...runOptions, extraTools }, io));
      }
      case 'undo': {
        const runId = required(target, 'undo needs a run id: task-planner undo <runId> [--from STEP] (list them with "task-planner runs")');
        return await undoCommand(runId, { workspace, from: values.from, json: values.json, allowHardLinks: values['allow-hard-links'] }, io);
      }
      case 'tools':
        if (target !== undefined) throw new UsageError(`tools takes no argument, got "${target}".`);
        return await withCliMcp(mcpOptions, io, (tools, servers) => Promise.resolve(toolsCommand({ tools, servers }, values.json, io)));
      case 'trace': {
        const runId = required(target, 'trace needs a run id: task-planner trace <runId> [--trace FILE] (list them with "task-planner runs")');
        return await traceCommand(runId, workspace, { ...runOptions, file: values.trace }, io);
      }
      case 'runs':
        if (target !== undefined) throw new UsageError(`runs takes no argument, got "${target}".`);
        return await runsCommand(workspace, values.json, io);
      case undefined:
        io.err(helpText);
        return 2;
      default:
        throw new UsageError(`Unknown command "${command}". Commands: plan, validate, run, import, export, resume, rerun, runs, trace, undo, tools.`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\nRun "task-planner --help" for the usage.`);
      return 2;
    }
    io.err(`task-planner: ${errorMessage(error)}`);
    return 1;
  }
}

/** The commands that act on a workspace (and journal under it). */
const workspaceCommands: ReadonlySet<string> = new Set(['plan', 'run', 'resume', 'rerun', 'runs', 'trace', 'undo']);

function required(value: string | undefined, message: string): string {
  if (value === undefined || value === '') throw new UsageError(message);
  return value;
}

function parseConcurrency(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 256) throw new UsageError(`--concurrency must be a whole number from 1 to 256, got "${text}".`);
  return value;
}

function cliAnswers(values: {
  approve?: string[];
  reject?: string[];
  answer?: string[];
  'accept-review'?: string[];
  'reject-review'?: string[];
  done?: string[];
  failed?: string[];
}): CliAnswers {
  const approvals: NonNullable<CliAnswers['approvals']> = {};
  for (const id of values.approve ?? []) approvals[id] = true;
  for (const pair of values.reject ?? []) {
    // STEP=REASON rejects with feedback: the step's agent is told and proposes again.
    const split = pair.indexOf('=');
    if (split === 0) throw new UsageError(`--reject needs STEP or STEP=REASON, got "${pair}".`);
    const feedback = split < 0 ? undefined : boundedFeedback(pair.slice(split + 1));
    approvals[split < 0 ? pair : pair.slice(0, split)] = feedback === undefined ? false : { approved: false, feedback };
  }
  const answers: Record<string, string> = {};
  for (const pair of values.answer ?? []) {
    const split = pair.indexOf('=');
    if (split <= 0) throw new UsageError(`--answer needs STEP=TEXT, got "${pair}".`);
    answers[pair.slice(0, split)] = pair.slice(split + 1);
  }
  const reviews: Record<string, { approved: boolean; notes?: string }> = {};
  const review = (pair: string, approved: boolean): void => {
    const split = pair.indexOf('=');
    const id = split < 0 ? pair : pair.slice(0, split);
    reviews[id] = split < 0 ? { approved } : { approved, notes: pair.slice(split + 1) };
  };
  for (const pair of values['accept-review'] ?? []) review(pair, true);
  for (const pair of values['reject-review'] ?? []) review(pair, false);
  return { approvals, answers, reviews, manual: manualAnswers(values.done ?? [], values.failed ?? []) };
}

/** `--done STEP[=NOTE]` and `--failed STEP=REASON`: manual steps the person did, or could not do and why. */
function manualAnswers(done: readonly string[], failed: readonly string[]): NonNullable<CliAnswers['manual']> {
  const manual: NonNullable<CliAnswers['manual']> = {};
  for (const pair of done) {
    const split = pair.indexOf('=');
    if (split === 0) throw new UsageError(`--done needs STEP or STEP=NOTE, got "${pair}".`);
    const note = split < 0 ? '' : pair.slice(split + 1).trim();
    manual[split < 0 ? pair : pair.slice(0, split)] = note ? { done: true, note } : { done: true };
  }
  for (const pair of failed) {
    const split = pair.indexOf('=');
    const reason = split > 0 ? pair.slice(split + 1).trim() : '';
    if (reason === '') throw new UsageError(`--failed needs STEP=REASON (say why the step could not be done), got "${pair}".`);
    const stepId = pair.slice(0, split);
    if (stepId in manual) throw new UsageError(`Step ${stepId} is given both --done and --failed; give one.`);
    manual[stepId] = { done: false, reason };
  }
  return manual;
}

/** The exit code of a command line whose command never finished (its last promise left pending). */
const unfinishedExitCode = 70;

if (require.main === module) {
  const io = terminalIo({
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
  });
  // Commands this process starts could read its environment in /proc/<pid>/environ:
  // every secret leaves it before any work starts, and only the key is handed on.
  const kept = withoutSecrets(process.env);
  const secrets = takeFromEnvironment((name) => !(name in kept));
  if (process.platform === 'linux' && !secrets.hidden) {
    io.err(
      `task-planner: warning: ${Object.keys(secrets.values).join(', ')} could not be cleared from this process's initial environment; commands you approve could read them in /proc/${process.pid}/environ.`,
    );
  }
  // Until main settles: a promise left pending for ever (a run waiting on something that never comes) lets the event loop
  // empty and Node exit, which must not read as success to a script or a CI job.
  process.exitCode = unfinishedExitCode;
  process.on('exit', (code) => {
    if (code !== unfinishedExitCode) return;
    io.err(
      'task-planner: the command stopped before it finished, with nothing left to wait on; this is a bug. A run it started can be resumed (see task-planner runs).',
    );
  });
  main(process.argv.slice(2), io, { ...process.env, ...secrets.values }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      io.err(`task-planner: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 1;
    },
  );
}
