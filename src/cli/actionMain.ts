import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { withoutSecrets } from '../node/commandEnvironment';
import { takeFromEnvironment } from '../node/takeFromEnvironment';
import { runGithubAction, workflowCommandText, type CliStarter } from './githubAction';

/** Characters of the CLI's error stream kept for the job summary of a run that did not start. */
const stderrTailChars = 4000;

/**
 * Runs the built CLI (`cli.js` beside this file; from the sources, `cli.ts` through tsx)
 * without a terminal. Its progress goes to the job log with workflow commands stopped
 * (`::stop-commands::`), so no step title or tool output can issue one.
 */
export const startBuiltCli: CliStarter = (args, env) => {
  const built = join(__dirname, 'cli.js');
  const command = existsSync(built) ? [built] : ['--import', 'tsx', join(__dirname, 'cli.ts')];
  const token = randomUUID();
  process.stdout.write(`::stop-commands::${token}\n`);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...command, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      stderr = (stderr + chunk.toString()).slice(-stderrTailChars);
    });
    child.on('error', fail);
    child.on('close', (code) => {
      process.stdout.write(`\n::${token}::\n`);
      done({ code: code ?? 1, stdout, stderrTail: stderr });
    });
  });
};

if (require.main === module) {
  // The commands of the plan run as this job's user and could read this process's environment in /proc/<pid>/environ
  // (the api-key input, the runner's tokens): every secret leaves it before anything starts; the CLI is handed them as before.
  const kept = withoutSecrets(process.env);
  const secrets = takeFromEnvironment((name) => !(name in kept));
  if (process.platform === 'linux' && !secrets.hidden) {
    process.stdout.write(
      `::warning title=Task Planner::${workflowCommandText(`${Object.keys(secrets.values).join(', ')} could not be cleared from the action's initial environment; commands the plan runs could read them in /proc/${process.pid}/environ.`)}\n`,
    );
  }
  runGithubAction({ ...process.env, ...secrets.values }, startBuiltCli, (line) => process.stdout.write(`${line}\n`)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stdout.write(`::error title=Task Planner::${workflowCommandText(String(error))}\n`);
      process.exitCode = 1;
    },
  );
}
