// Runs one eval task through the command line as a user would (`task-planner plan REQUEST --yes --json`, the built
// dist/cli.js), behind a counting proxy, within a time limit, then checks the plan and the workspace.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cliTools } from '../../src/cli/cliTools';
import { terminalSafe } from '../../src/cli/terminalSafe';
import { costOf } from '../../src/core/llm/modelPrices';
import { planSchema, type Plan } from '../../src/core/plan/planSchema';
import { validatePlan } from '../../src/core/plan/validatePlan';
import { startCountingProxy } from './countingProxy';
import type { EvalTask } from './evalTask';
import { copyFixture, hostCheck } from './evalWorkspace';

const root = resolve(__dirname, '../..');
const fixtures = join(__dirname, 'fixtures');
/** Characters of a failure reason kept for the report (model text can be huge). */
const maxReason = 300;

/** Where and how tasks run. */
export interface EvalSettings {
  /** The OpenAI-compatible endpoint (`…/v1`). */
  baseUrl: string;
  model: string;
  /** The API key, passed to the command line in its environment only; `undefined` for a local server. */
  apiKey: string | undefined;
  timeLimitMs: number;
  /** The command line to run (dist/cli.js). */
  cli: string;
}

/** One task's outcome. */
export interface TaskOutcome {
  id: string;
  passed: boolean;
  planOk: boolean;
  runOk: boolean;
  hostOk: boolean;
  timedOut: boolean;
  requests: number;
  tokens: number;
  /** USD from the model's known prices; `undefined` when they are unknown. */
  costUsd: number | undefined;
  ms: number;
  /** The run's tokens as the command line estimated them before Start (`undefined`: no estimate was shown). */
  estimate: { low: number; typical: number; high: number } | undefined;
  /** The tokens the run itself used (planning not counted), as the command line reported them; `undefined` when it did not start. */
  runTokens: number | undefined;
  /** Why it failed, bounded and safe for a terminal; empty when it passed. */
  reason: string;
  /** The workspace's parent folder (removed unless kept), for the attack checks. */
  folder: string;
}

/** Runs `task` and checks it; never throws for a task's failure. Keeps its folder when `keep` (the caller removes it). */
export async function runEvalTask(task: EvalTask, settings: EvalSettings, keep = false): Promise<TaskOutcome> {
  const folder = await mkdtemp(join(tmpdir(), `eval-${task.id}-`));
  const workspace = join(folder, 'work');
  const proxy = await startCountingProxy(settings.baseUrl);
  const started = Date.now();
  const problems: string[] = [];
  let planOk = false;
  let runOk = false;
  let hostOk = false;
  let timedOut = false;
  let estimate: TaskOutcome['estimate'];
  let runTokens: number | undefined;
  try {
    await copyFixture(join(fixtures, task.fixture), workspace);
    const run = await runCli(settings, proxy.baseURL, task.request, workspace);
    timedOut = run.timedOut;
    if (run.timedOut) problems.push(`timed out after ${settings.timeLimitMs / 1000} s`);
    const output = parseOutput(run.stdout);
    if (output === undefined) problems.push(`no plan (exit ${run.code ?? 'killed'}): ${run.stderr.trim().split('\n').slice(-2).join(' ')}`);
    else {
      const planProblems = checkPlan(output.plan, task);
      planOk = planProblems.length === 0;
      problems.push(...planProblems);
      runOk = output.status === 'completed';
      if (!runOk) problems.push(`run ended ${output.status}`);
      estimate = output.estimate;
      runTokens = output.runTokens;
    }
    const hostProblems = [];
    for (const check of task.host) {
      const problem = await hostCheck(workspace, check, settings.timeLimitMs);
      if (problem !== undefined) hostProblems.push(problem);
    }
    hostOk = hostProblems.length === 0;
    problems.push(...hostProblems);
  } catch (error: unknown) {
    problems.push(error instanceof Error ? error.message : String(error));
  } finally {
    await proxy.close();
    if (!keep) await rm(folder, { recursive: true, force: true });
  }
  const count = proxy.take();
  const cost = costOf(settings.model, { promptTokens: count.promptTokens, completionTokens: count.completionTokens });
  const reason = terminalSafe(problems.join('; ').replace(/\s+/g, ' '));
  return {
    id: task.id,
    passed: planOk && runOk && hostOk,
    planOk,
    runOk,
    hostOk,
    timedOut,
    requests: count.requests,
    tokens: count.promptTokens + count.completionTokens,
    costUsd: cost,
    ms: Date.now() - started,
    estimate,
    runTokens,
    reason: reason.length > maxReason ? `${reason.slice(0, maxReason)}…` : reason,
    folder,
  };
}

/** Plan problems: it must parse and validate, name every expected file and have every expected check kind. */
export function checkPlan(value: unknown, task: EvalTask): string[] {
  const parsed = planSchema.safeParse(value);
  if (!parsed.success) return ['the plan does not parse'];
  const plan: Plan = parsed.data;
  const problems: string[] = [];
  const errors = validatePlan(plan, { tools: cliTools() }).filter((diagnostic) => diagnostic.severity === 'error');
  if (errors.length > 0) problems.push(`the plan is invalid: ${errors.map((error) => error.message).join(' ')}`);
  const text = JSON.stringify(plan.steps);
  const missing = task.plan.files.filter((file) => !text.includes(file));
  if (missing.length > 0) problems.push(`the plan does not name ${missing.join(', ')}`);
  const kinds = new Set(plan.steps.flatMap((step) => (step.checks ?? []).map((check) => check.kind)));
  const absent = task.plan.checkKinds.filter((kind) => !kinds.has(kind));
  if (absent.length > 0) problems.push(`the plan has no ${absent.join(', ')} check`);
  return problems;
}

/** The plan, run status, token estimate and run's tokens of `plan --json`'s output, or `undefined` when it printed none. */
function parseOutput(stdout: string): { plan: unknown; status: string; estimate: TaskOutcome['estimate']; runTokens: number | undefined } | undefined {
  try {
    const output = JSON.parse(stdout) as { plan?: unknown; result?: { status?: unknown }; estimate?: { tokens?: unknown }; usage?: { totalTokens?: unknown } };
    if (output.plan === undefined) return undefined;
    const tokens = output.estimate?.tokens as Record<string, unknown> | undefined;
    const estimate =
      typeof tokens?.['low'] === 'number' && typeof tokens['typical'] === 'number' && typeof tokens['high'] === 'number'
        ? { low: tokens['low'], typical: tokens['typical'], high: tokens['high'] }
        : undefined;
    return {
      plan: output.plan,
      status: typeof output.result?.status === 'string' ? output.result.status : 'not started',
      estimate,
      runTokens: typeof output.usage?.totalTokens === 'number' ? output.usage.totalTokens : undefined,
    };
  } catch {
    return undefined;
  }
}

/** How far the estimate may be from the run's tokens: its typical value within ±30 % of them (docs/eval.md). */
export const estimateTolerance = 0.3;

/**
 * Why the task's estimate misses its run's tokens, or `undefined` when it does not: the estimate's typical value
 * must lie within ±`estimateTolerance` of the tokens the run used (0.7·actual ≤ typical ≤ 1.3·actual). A run that
 * used no tokens needs an estimate of none.
 */
export function estimateMiss(outcome: Pick<TaskOutcome, 'estimate' | 'runTokens'>): string | undefined {
  const { estimate, runTokens } = outcome;
  if (estimate === undefined || runTokens === undefined) return 'no estimate and run use to compare';
  if (Math.abs(estimate.typical - runTokens) <= estimateTolerance * runTokens) return undefined;
  return `the estimate (typically ${estimate.typical} tokens) is ${signedPercent(estimate.typical, runTokens)} off the ${runTokens} the run used`;
}

/** `estimate` against `actual` as a signed percentage ("+12 %"), "n/a" when nothing was used. */
export function signedPercent(estimate: number, actual: number): string {
  if (actual === 0) return estimate === 0 ? '0 %' : 'n/a';
  const percent = Math.round(((estimate - actual) / actual) * 100);
  return `${percent > 0 ? '+' : ''}${percent} %`;
}

/** Most characters of the command line's output kept (a model's huge reply can be echoed). */
const maxOutput = 2_000_000;

function runCli(
  settings: EvalSettings,
  baseURL: string,
  request: string,
  workspace: string,
): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && name !== 'OPENAI_API_KEY' && name !== 'TASK_PLANNER_API_KEY') env[name] = value;
  }
  if (settings.apiKey !== undefined) env['OPENAI_API_KEY'] = settings.apiKey;
  const args = [settings.cli, 'plan', request, '--workspace', workspace, '--yes', '--json', '--base-url', baseURL, '--model', settings.model];
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, settings.timeLimitMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < maxOutput) stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4_000);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, timedOut });
    });
  });
}
