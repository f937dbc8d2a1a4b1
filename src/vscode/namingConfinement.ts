import type { WorkspaceFs } from '../core/ports';
import { PathRefusedError } from '../core/workspace/resolveInRoot';
import { capText } from '../core/text/capText';
import { visibleDirection } from '../core/plan/visibleDirection';
import { canReadTextMany, type ManyTextReader, type ReadManyOptions, type TextVisitor } from '../core/workspace/readTextMany';

/** Longest folder name put into a refusal, in characters. */
const maxFolderNameChars = 120;

/**
 * `workspace` (one folder of a workspace of several) with every refused path's message
 * naming the folder the run is confined to, so a path meant for another folder
 * (`../other/x`, an absolute path there, a link into it) is refused in words that say
 * where the run may write. What is refused, and everything else, is `workspace`'s own.
 */
export function namingConfinement(workspace: WorkspaceFs, folderName: string): WorkspaceFs & Partial<ManyTextReader> {
  const name = visibleDirection(capText(folderName.replace(/[\u0000-\u001f\u007f-\u009f"]/g, '?'), maxFolderNameChars));
  const named = (error: unknown): unknown =>
    error instanceof PathRefusedError
      ? new PathRefusedError(error.path, `${error.reason}; this run is confined to the workspace folder "${name}"`)
      : error;
  const wrap =
    <A extends unknown[], R>(operation: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await operation(...args);
      } catch (error) {
        throw named(error);
      }
    };
  const readBytes = workspace.readBytes?.bind(workspace);
  const locate = workspace.locate?.bind(workspace);
  return {
    rootLabel: workspace.rootLabel,
    readText: wrap(workspace.readText.bind(workspace)),
    writeText: wrap(workspace.writeText.bind(workspace)),
    delete: wrap(workspace.delete.bind(workspace)),
    createDirectory: wrap(workspace.createDirectory.bind(workspace)),
    list: wrap(workspace.list.bind(workspace)),
    stat: wrap(workspace.stat.bind(workspace)),
    ...(readBytes ? { readBytes: wrap(readBytes) } : {}),
    ...(locate ? { locate: wrap(locate) } : {}),
    ...(workspace.textSearcher ? { textSearcher: workspace.textSearcher } : {}),
    ...(canReadTextMany(workspace)
      ? {
          readTextMany: wrap((paths: readonly string[], visit: TextVisitor, signal?: AbortSignal, options?: ReadManyOptions) =>
            workspace.readTextMany(paths, (path, text, error) => visit(path, text, error === undefined ? undefined : named(error)), signal, options),
          ),
        }
      : {}),
  };
}
