import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGithubAction, type CliStarter } from '../../../src/cli/githubAction';
import { temporaryDirectory } from '../../support/temporaryDirectory';

/** A command line that "ran" the plan: a completed run of one step. */
const completed: CliStarter = async () => ({
  code: 0,
  stdout: JSON.stringify({ runId: 'run-1', status: 'completed', metadata: { warnings: [] }, steps: { S1: { id: 'S1', status: 'completed', attempts: 1 } } }),
  stderrTail: '',
});

describe('GitHub Action: what reaches the job log (attacks)', () => {
  const workspace = temporaryDirectory('action-log-ws-');
  const runner = temporaryDirectory('action-log-runner-');

  async function run(inputs: Record<string, string>, startCli: CliStarter = completed): Promise<{ code: number; log: string[]; summary: string }> {
    writeFileSync(join(workspace.path, 'plan.json'), '{}');
    writeFileSync(join(runner.path, 'summary.md'), '');
    writeFileSync(join(runner.path, 'output'), '');
    const env: Record<string, string> = {
      GITHUB_WORKSPACE: workspace.path,
      RUNNER_TEMP: runner.path,
      GITHUB_STEP_SUMMARY: join(runner.path, 'summary.md'),
      GITHUB_OUTPUT: join(runner.path, 'output'),
      INPUT_PLAN: 'plan.json',
    };
    for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
    const log: string[] = [];
    const code = await runGithubAction(env, startCli, (line) => log.push(line));
    return { code, log, summary: readFileSync(join(runner.path, 'summary.md'), 'utf8') };
  }

  /** The lines of what the action logged that the runner reads as workflow commands (`::…` or `##[…`). */
  const commands = (log: readonly string[]): string[] => log.flatMap((line) => line.split(/\r\n|\r|\n/)).filter((line) => /^\s*(?:::|##\[)/.test(line));

  it('attack: a journal-dir input holding a line break and "::" issues no workflow command in the log', async () => {
    const result = await run({ 'journal-dir': 'journal\n::add-mask::run-1\n::error title=Forged::All tests passed' });
    assert.equal(result.code, 0, result.log.join('\n'));
    assert.deepEqual(commands(result.log), []);
    assert.match(result.log.join('\n'), /journal files? in .*journal/);
  });

  it('attack: a journal-dir input holding a carriage return and "##[" issues no workflow command in the log', async () => {
    const result = await run({ 'journal-dir': 'journal\r##[set-output name=status;]completed' });
    assert.deepEqual(commands(result.log), []);
  });

  it('an input refused issues one error annotation, its text on that line', async () => {
    const result = await run({ plan: 'missing.json\n::warning::forged' });
    assert.equal(result.code, 2);
    assert.deepEqual(commands(result.log).length, 1);
    assert.match(result.log[0]!, /^::error title=Task Planner::The input plan names missing\.json%0A::warning::forged, which is not a file/);
  });
});
