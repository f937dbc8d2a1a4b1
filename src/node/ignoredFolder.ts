import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What git is told of a folder of run journals and checkpoints: nothing in it is to be committed. They hold what steps
 * read and what files held before a change, secrets included (a `.env` a step read), and the CLI keeps them inside
 * the workspace (`.task-planner/runs`), where `git add -A` would take them.
 */
export const runsFolderIgnore = '# Run journals and checkpoints of Task Planner: what steps read and files held before a change. Not for git.\n*\n';

/**
 * Makes `dir` (and its parents) when missing, with a `.gitignore` of `runsFolderIgnore` when it has none (one the user
 * wrote is kept as it is).
 */
export async function makeIgnoredFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, '.gitignore'), runsFolderIgnore, { encoding: 'utf8', flag: 'wx' }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
}
