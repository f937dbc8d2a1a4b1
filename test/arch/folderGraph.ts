import { resolveSpecifier, type SourceFile } from './importGraph';

/** Imports between first-level folders of `root`: from → to → how many imports (file, specifier) cross. */
export type FolderGraph = Map<string, Map<string, number>>;

/** The first-level folder of `root` a project-relative path lies in, or `undefined` for files directly in `root` or outside it. */
export function firstLevelFolder(root: string, path: string): string | undefined {
  if (!path.startsWith(`${root}/`)) return undefined;
  const parts = path.slice(root.length + 1).split('/');
  return parts.length > 1 ? parts[0] : undefined;
}

/** The folder-level import graph of `root`'s first-level folders (imports within a folder are not edges). */
export function folderGraph(files: SourceFile[], root: string): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const file of files) {
    const from = firstLevelFolder(root, file.path);
    if (from === undefined) continue;
    for (const specifier of file.specifiers) {
      const target = resolveSpecifier(file.path, specifier);
      const to = target === undefined ? undefined : firstLevelFolder(root, target);
      if (to === undefined || to === from) continue;
      const row = graph.get(from) ?? new Map<string, number>();
      row.set(to, (row.get(to) ?? 0) + 1);
      graph.set(from, row);
    }
  }
  return graph;
}

/** Each pair of folders that import each other, as "a↔b n/m" (n imports from a into b, m back), sorted. */
export function mutualPairs(graph: FolderGraph): string[] {
  const pairs: string[] = [];
  for (const [from, row] of graph) {
    for (const [to, count] of row) {
      const back = graph.get(to)?.get(from);
      if (back !== undefined && from < to) pairs.push(`${from}↔${to} ${count}/${back}`);
    }
  }
  return pairs.sort();
}

/** The folder cycles of `graph`, each as a list of folders from and back to its first (empty when the graph is acyclic). */
export function folderCycles(graph: FolderGraph): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (folder: string): void => {
    state.set(folder, 'visiting');
    stack.push(folder);
    for (const target of [...(graph.get(folder)?.keys() ?? [])].sort()) {
      if (state.get(target) === 'visiting') cycles.push([...stack.slice(stack.indexOf(target)), target]);
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(folder, 'done');
  };
  for (const folder of [...graph.keys()].sort()) if (!state.has(folder)) visit(folder);
  return cycles;
}
