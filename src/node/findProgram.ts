import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Where `program` would be executed from, as `execvp` finds it: a name with a slash
 * relative to `cwd`, any other name in the absolute directories of `pathVariable` (POSIX
 * `PATH`; an empty or relative entry, which would look in the working folder, is skipped);
 * `undefined` when there is no executable file of that name. On Windows a name is also
 * tried with `.exe` and `.com`.
 */
export function findProgram(program: string, cwd: string, pathVariable: string | undefined): string | undefined {
  if (hasFolder(program)) return executable(path.resolve(cwd, program));
  return findInFolders(program, absoluteEntries(pathVariable));
}

/** The first executable file named `program` (a name without a folder) in `folders`, in their order. */
export function findInFolders(program: string, folders: readonly string[]): string | undefined {
  for (const folder of folders) {
    for (const name of namesOf(program)) {
      const found = executable(path.join(folder, name));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The entries of a `PATH` value that are absolute folders, in order, each once. */
export function absoluteEntries(pathVariable: string | undefined): string[] {
  const entries = (pathVariable ?? '').split(path.delimiter).filter((entry) => path.isAbsolute(entry));
  return [...new Set(entries)];
}

/** Whether `program` names a file by its path (`./gradlew`, `bin/test`) rather than a program to look up. */
export function hasFolder(program: string): boolean {
  return program.includes('/') || (process.platform === 'win32' && program.includes('\\'));
}

function namesOf(program: string): string[] {
  return process.platform === 'win32' && path.extname(program) === '' ? [`${program}.exe`, `${program}.com`, program] : [program];
}

function executable(file: string): string | undefined {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}
