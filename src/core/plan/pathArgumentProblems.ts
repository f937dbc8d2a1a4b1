import { normalizeWorkspacePath, PathRefusedError } from '../workspace/resolveInRoot';
import type { Step } from './planSchema';

/** The arguments of the built-in tools that name a place in the workspace. */
const placeArguments = ['path', 'cwd'] as const;

/**
 * Why the run would refuse where a built-in tool step works, for each of its `path` and `cwd` arguments written out (not
 * a template) that the workspace refuses: one climbing out of it (`../app/README.md`), a drive letter, a UNC or device
 * path, a name Windows reserves. An absolute path is left alone: inside the workspace's folder it is taken, and only the
 * run knows the folder. Another program's tools (`mcp__…`, `vscode__…`) name their own places and are not judged.
 * A newcomer's plan scored 10/10 here, then failed at Start.
 */
export function pathArgumentProblems(step: Step): string[] {
  if (step.kind !== 'tool' || step.tool === undefined || step.tool.includes('__')) return [];
  const problems: string[] = [];
  for (const name of placeArguments) {
    const value = step.args?.[name];
    if (typeof value !== 'string' || value.startsWith('/') || /\{\{|^\$/.test(value)) continue;
    try {
      normalizeWorkspacePath(value);
    } catch (error) {
      if (!(error instanceof PathRefusedError)) throw error;
      problems.push(
        `Step "${step.id}": its ${name} ${JSON.stringify(value.slice(0, 200))} is refused: ${error.reason}. ` +
          'Name a place inside the workspace folder (in a workspace of several folders, each plan works in one of them).',
      );
    }
  }
  return problems;
}
