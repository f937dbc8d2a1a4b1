import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Where `program` would be executed from, as `execvp` finds it: a name with a slash
 * relative to `cwd`, any other name in the directories of `pathVariable` (POSIX `PATH`);
 * `undefined` when there is no executable file of that name.
 */
export function findProgram(program: string, cwd: string, pathVariable: string | undefined): string | undefined {
  if (program.includes('/')) return executable(path.resolve(cwd, program));
  for (const dir of (pathVariable ?? '').split(path.delimiter)) {
    const found = executable(path.resolve(cwd, dir, program));
    if (found !== undefined) return found;
  }
  return undefined;
}

function executable(file: string): string | undefined {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}
