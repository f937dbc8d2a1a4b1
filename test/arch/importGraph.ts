import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The project root (two levels above this file). */
export const projectRoot = resolve(__dirname, '..', '..');

/** One source file and the module specifiers it imports (static, dynamic, require and re-exports). */
export interface SourceFile {
  /** Project-relative path with `/` separators. */
  path: string;
  text: string;
  specifiers: string[];
}

const importPattern = /(?:^|[^\w$.])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]|(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Every `.ts` file under the given project-relative folders, with its imports. */
export function readSources(...folders: string[]): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const full = join(folder, name);
      if (name === 'node_modules') continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts')) {
        const text = readFileSync(full, 'utf8');
        const withoutComments = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
        const specifiers = [...withoutComments.matchAll(importPattern)].map((match) => (match[1] ?? match[2])!);
        files.push({ path: relative(projectRoot, full).split('\\').join('/'), text, specifiers });
      }
    }
  };
  for (const folder of folders) {
    const full = join(projectRoot, folder);
    if (existsSync(full)) walk(full);
  }
  return files;
}

/** The project-relative file a relative specifier points to, or `undefined` for packages. */
export function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = join(projectRoot, dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(projectRoot, candidate).split('\\').join('/');
  }
  return relative(projectRoot, `${base}.ts`).split('\\').join('/');
}

/** Import cycles among `files`, each as a list of paths (empty when there are none). */
export function importCycles(files: SourceFile[]): string[][] {
  const edges = new Map(files.map((file) => [file.path, file.specifiers.map((specifier) => resolveSpecifier(file.path, specifier)).filter((target): target is string => target !== undefined)]));
  const cycles: string[][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (path: string): void => {
    state.set(path, 'visiting');
    stack.push(path);
    for (const target of edges.get(path) ?? []) {
      if (!edges.has(target)) continue;
      if (state.get(target) === 'visiting') cycles.push([...stack.slice(stack.indexOf(target)), target]);
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(path, 'done');
  };
  for (const path of edges.keys()) if (!state.has(path)) visit(path);
  return cycles;
}
