// `npm run eval`: plan quality measured on the tasks of evalTasks.ts (test/eval/README.md).
//   npm run eval -- --base-url URL --model NAME [--key-env VAR] [--task ID]… [--time-limit SECONDS] [--concurrency N] [--json FILE]
//   npm run eval -- --scripted   (CI: a scripted model with canned good plans, plus the attacks; tests the harness only)
// Each task runs the built command line (dist/cli.js: `plan REQUEST --yes --json`) on a copy of its fixture, behind a
// counting proxy; then the plan and the workspace are checked. Prints one line per task and the pass rate.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { evalAttacks, startScriptedModel } from './evalScripted';
import { estimateMiss, runEvalTask, signedPercent, type EvalSettings, type TaskOutcome } from './evalRun';
import { evalTasks } from './evalTasks';
import { copyFixture, hostCheck } from './evalWorkspace';

const root = resolve(__dirname, '../..');

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'key-env': { type: 'string', default: 'OPENAI_API_KEY' },
      task: { type: 'string', multiple: true },
      'time-limit': { type: 'string' },
      concurrency: { type: 'string' },
      json: { type: 'string' },
      scripted: { type: 'boolean', default: false },
    },
  });
  const cli = process.env['TASK_PLANNER_TEST_CLI'] ?? join(root, 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build it first (node esbuild.mjs; npm run eval does).`);
  const scripted = values.scripted;
  if (!scripted && (values['base-url'] === undefined || values.model === undefined)) {
    throw new Error('Give the endpoint and model: --base-url URL --model NAME (the key is read from $OPENAI_API_KEY, or --key-env VAR), or --scripted.');
  }
  const tasks = values.task === undefined ? evalTasks : evalTasks.filter((task) => values.task?.includes(task.id));
  if (tasks.length === 0) throw new Error(`No task named ${values.task?.join(', ')}; tasks: ${evalTasks.map((task) => task.id).join(', ')}`);
  const timeLimitMs = Math.round(Number(values['time-limit'] ?? (scripted ? 60 : 600)) * 1000);
  const concurrency = Math.max(1, Math.floor(Number(values.concurrency ?? (scripted ? 3 : 1))));
  if (!Number.isFinite(timeLimitMs) || timeLimitMs <= 0 || !Number.isFinite(concurrency)) {
    throw new Error('--time-limit and --concurrency take positive numbers.');
  }

  const server = scripted ? await startScriptedModel(tasks) : undefined;
  try {
    const apiKey = scripted ? undefined : process.env[values['key-env']]?.trim() || undefined;
    const settings: EvalSettings = {
      baseUrl: server?.baseURL ?? values['base-url'] ?? '',
      model: scripted ? 'scripted-model' : (values.model ?? ''),
      apiKey,
      timeLimitMs,
      cli,
    };
    console.log(
      `Eval: ${tasks.length} tasks against ${scripted ? 'the scripted model (this tests the harness, not a model)' : `${settings.model} at ${settings.baseUrl}`}${apiKey ? ' (API key from the environment)' : ''}`,
    );
    const outcomes = await inParallel(tasks, concurrency, async (task) => {
      const outcome = await runEvalTask(task, settings);
      console.log(taskLine(outcome));
      return outcome;
    });
    summarize(outcomes);
    if (values.json !== undefined) await writeFile(values.json, `${JSON.stringify(outcomes.map(({ folder: _folder, ...outcome }) => outcome), null, 2)}\n`);
    if (!scripted) return 0;
    const failedAttacks = await runAttacks(settings, Math.min(timeLimitMs, 30_000));
    const failedTasks = outcomes.filter((outcome) => !outcome.passed).length;
    // Against the scripted model the estimate is part of the harness check: every task's must be within ±30 % of its run.
    const missed = outcomes.flatMap((outcome) => {
      const miss = estimateMiss(outcome);
      return miss === undefined ? [] : [`${outcome.id}: ${miss}`];
    });
    for (const miss of missed) console.log(`ESTIMATE OFF ${miss}`);
    const ok = failedTasks === 0 && failedAttacks === 0 && missed.length === 0;
    console.log(
      ok
        ? 'Harness check passed: every canned plan passed, every estimate was within ±30 % of its run\'s tokens, every attack was contained.'
        : 'Harness check FAILED.',
    );
    return ok ? 0 : 1;
  } finally {
    await server?.close();
  }
}

function taskLine(outcome: TaskOutcome): string {
  const cost = outcome.costUsd === undefined ? 'cost unknown' : `$${outcome.costUsd.toFixed(4)}`;
  const parts = `plan ${outcome.planOk ? 'ok' : 'no'}, run ${outcome.runOk ? 'ok' : 'no'}, workspace ${outcome.hostOk ? 'ok' : 'no'}`;
  return (
    `${outcome.passed ? 'PASS' : 'FAIL'} ${outcome.id}: ${parts}; ${outcome.requests} requests, ${outcome.tokens} tokens, ${cost}, ` +
    `${(outcome.ms / 1000).toFixed(1)} s; ${estimateText(outcome)}${outcome.reason ? ` — ${outcome.reason}` : ''}`
  );
}

/** The run's tokens beside the estimate shown before Start: "run 9120 tokens, estimated 8800 (4100–31000), -4 %". */
function estimateText(outcome: Pick<TaskOutcome, 'estimate' | 'runTokens'>): string {
  const { estimate, runTokens } = outcome;
  if (estimate === undefined || runTokens === undefined) return 'no estimate against the run';
  const within = estimateMiss(outcome) === undefined ? 'within ±30 %' : 'OFF by more than 30 %';
  return `run ${runTokens} tokens, estimated ${estimate.typical} (${estimate.low}–${estimate.high}), ${signedPercent(estimate.typical, runTokens)}, ${within}`;
}

function summarize(outcomes: readonly TaskOutcome[]): void {
  const passed = outcomes.filter((outcome) => outcome.passed).length;
  const sum = (pick: (outcome: TaskOutcome) => number): number => outcomes.reduce((total, outcome) => total + pick(outcome), 0);
  const priced = outcomes.every((outcome) => outcome.costUsd !== undefined);
  console.log(
    `Pass rate: ${passed}/${outcomes.length} (${((passed / outcomes.length) * 100).toFixed(1)} %); ${sum((o) => o.requests)} requests, ${sum((o) => o.tokens)} tokens, ` +
      `${priced ? `$${sum((o) => o.costUsd ?? 0).toFixed(4)}` : 'cost unknown (no price for this model)'}, ${(sum((o) => o.ms) / 1000).toFixed(1)} s of task time`,
  );
  const compared = outcomes.filter((outcome) => outcome.estimate !== undefined && outcome.runTokens !== undefined);
  const within = compared.filter((outcome) => estimateMiss(outcome) === undefined).length;
  const total = (pick: (outcome: TaskOutcome) => number): number => compared.reduce((all, outcome) => all + pick(outcome), 0);
  const estimated = total((o) => o.estimate?.typical ?? 0);
  const used = total((o) => o.runTokens ?? 0);
  console.log(
    `Estimate: within ±30 % of the run's tokens on ${within}/${compared.length} tasks; ` +
      `the runs used ${used} tokens, estimated ${estimated} (${total((o) => o.estimate?.low ?? 0)}–${total((o) => o.estimate?.high ?? 0)}), ${signedPercent(estimated, used)}`,
  );
}

/** The attacks (scripted only): each must fail, bounded, without escaping or hanging the harness. Resolves to how many were not contained. */
async function runAttacks(settings: EvalSettings, attackLimitMs: number): Promise<number> {
  const problems: string[] = [];
  await inParallel(evalAttacks, 2, async (attack) => {
    const limit = attack.timeLimitMs ?? attackLimitMs;
    const outcome = await runEvalTask(attack.task, { ...settings, timeLimitMs: limit }, true);
    const problem = attack.contained(outcome, limit);
    await rm(outcome.folder, { recursive: true, force: true });
    console.log(`${problem === undefined ? 'contained' : 'NOT CONTAINED'} ${attack.task.id}: ${problem ?? outcome.reason}`);
    if (problem !== undefined) problems.push(attack.task.id);
  });
  // A fixture holding a link out of its folder is not copied; a host check naming a path outside is refused.
  const folder = await mkdtemp(join(tmpdir(), 'eval-attack-fixture-'));
  try {
    await mkdir(join(folder, 'fixture'));
    await symlink(tmpdir(), join(folder, 'fixture', 'outside'));
    const copied = await copyFixture(join(folder, 'fixture'), join(folder, 'copy')).then(() => true, () => false);
    console.log(
      `${copied ? 'NOT CONTAINED' : 'contained'} attack-fixture-link: a fixture with a link out of its folder ${copied ? 'was copied' : 'is refused'}`,
    );
    if (copied) problems.push('attack-fixture-link');
    const outside = await hostCheck(join(folder, 'copy'), { kind: 'lacks', path: '../fixture/outside', text: 'x' }, 1_000);
    const refused = outside?.includes('outside the task') === true;
    console.log(
      `${refused ? 'contained' : 'NOT CONTAINED'} attack-check-path: a host check naming a path outside the workspace ${refused ? 'is refused' : 'ran'}`,
    );
    if (!refused) problems.push('attack-check-path');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return problems.length;
}

/** Runs `work` on every item, at most `limit` at once, keeping the items' order in the result. */
async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}


main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
