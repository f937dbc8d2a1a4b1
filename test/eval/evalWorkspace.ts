// A task's workspace: a copy of its fixture in a temporary folder, and the host checks run on it after the run.
// Both refuse any path that leaves the copy: a fixture with a symbolic link, a device or a path with `..` is not
// copied, and a check naming such a path fails without reading anything.
import { spawn } from 'node:child_process';
import { lstat, mkdir, readdir, readFile, copyFile } from 'node:fs/promises';
import { isAbsolute, join, normalize, sep } from 'node:path';
import type { HostCheck } from './evalTask';

/** Copies the fixture folder `from` into `to` (created), files and folders only; throws on anything else. */
export async function copyFixture(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from)) {
    const source = join(from, entry);
    const info = await lstat(source);
    if (info.isDirectory()) await copyFixture(source, join(to, entry));
    else if (info.isFile()) await copyFile(source, join(to, entry));
    else throw new Error(`fixture entry ${entry} is not a plain file or folder (a link or device could reach outside the fixture)`);
  }
}

/** `path` inside `root`, or an error when it is absolute or climbs out. */
export function insidePath(root: string, path: string): string {
  const normal = normalize(path);
  if (isAbsolute(normal) || normal === '..' || normal.startsWith(`..${sep}`)) throw new Error(`the check names ${path}, which is outside the task's workspace`);
  return join(root, normal);
}

/** Runs `check` on the workspace `root`; resolves to `undefined` when it holds, else what is wrong. */
export async function hostCheck(root: string, check: HostCheck, timeoutMs: number): Promise<string | undefined> {
  try {
    if (check.kind === 'tests') return await nodeTests(root, timeoutMs);
    const path = insidePath(root, check.path);
    const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (check.kind === 'absent') return text === undefined ? undefined : `${check.path} still exists`;
    if (text === undefined) return `${check.path} is missing`;
    if (check.kind === 'contains') return text.includes(check.text) ? undefined : `${check.path} lacks "${check.text}"`;
    return text.includes(check.text) ? `${check.path} still has "${check.text}"` : undefined;
  } catch (error: unknown) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** `node --test` in `root` (its default file patterns), within `timeoutMs`. */
function nodeTests(root: string, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' });
    let output = '';
    const keep = (chunk: Buffer): void => {
      if (output.length < 4_000) output += chunk.toString();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => resolve(`node --test could not start: ${error.message}`));
    child.on('close', (code, signal) => resolve(code === 0 ? undefined : `node --test failed (${signal ?? `exit ${code}`}): ${lastLines(output)}`));
  });
}

function lastLines(text: string): string {
  return text.trim().split('\n').filter((line) => /not ok|fail|Error/.test(line)).slice(0, 3).join(' | ');
}
