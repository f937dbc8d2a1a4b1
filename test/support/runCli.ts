import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');

/**
 * The CLI to run: the one `npm test` built in this run (it names dist/cli.js in $TASK_PLANNER_TEST_CLI, right
 * after the build), otherwise the sources through tsx, so a test run on its own never meets a stale build.
 */
const builtCli = process.env['TASK_PLANNER_TEST_CLI'];
const cliCommand = builtCli ? [builtCli] : ['--import', 'tsx', join(root, 'src/cli/cli.ts')];

/** The GitHub Action's entry point likewise: the build's action.js beside that cli.js (it runs the cli.js beside it), or its sources. */
export const actionCommand: readonly string[] = builtCli ? [join(dirname(builtCli), 'action.js')] : ['--import', 'tsx', join(root, 'src/cli/actionMain.ts')];

/**
 * Runs the CLI in a child process without a terminal (stdin closed), like CI.
 * `env` replaces the API key variables: neither key is inherited unless given.
 */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const base = { ...process.env };
  delete base['OPENAI_API_KEY'];
  delete base['TASK_PLANNER_API_KEY'];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...cliCommand, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...base, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
