import type { WorkspaceFs } from '../core/ports';
import type { Tool } from '../core/tools/tool';
import { PathRefusedError } from '../core/workspace/resolveInRoot';
import { capText } from '../core/text/capText';
import { visibleDirection } from '../core/plan/visibleDirection';
import { canReadTextMany, type ManyTextReader, type ReadManyOptions, type TextVisitor } from '../core/workspace/readTextMany';

/** Longest folder name put into a refusal, in characters. */
const maxFolderNameChars = 120;

/** What a refusal adds: the folder the run may work in. */
const confinedTo = '; this run is confined to the workspace folder ';

/** Maps a `PathRefusedError` to one whose reason names the folder `folderName` (once); other errors stay as they are. */
function refusalNaming(folderName: string): (error: unknown) => unknown {
  const name = visibleDirection(capText(folderName.replace(/[\u0000-\u001f\u007f-\u009f"]/g, '?'), maxFolderNameChars));
  return (error) =>
    error instanceof PathRefusedError && !error.reason.includes(confinedTo) ? new PathRefusedError(error.path, `${error.reason}${confinedTo}"${name}"`) : error;
}

/**
 * `tools` whose refusals of a path (the tools check some paths themselves, before the
 * workspace sees them) name the folder `folderName` the run is confined to, as
 * `namingConfinement` does for the workspace's own refusals.
 */
export function toolsNamingConfinement(tools: readonly Tool[], folderName: string): Tool[] {
  const named = refusalNaming(folderName);
  return tools.map((tool) => ({
    ...tool,
    async run(ctx, input, signal) {
      try {
        return await tool.run(ctx, input, signal);
      } catch (error) {
        throw named(error);
      }
    },
  }));
}

/**
 * `workspace` (one folder of a workspace of several) with every refused path's message
 * naming the folder the run is confined to, so a path meant for another folder
 * (`../other/x`, an absolute path there, a link into it) is refused in words that say
 * where the run may write. What is refused, and everything else, is `workspace`'s own.
 */
export function namingConfinement(workspace: WorkspaceFs, folderName: string): WorkspaceFs & Partial<ManyTextReader> {
  const named = refusalNaming(folderName);
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
