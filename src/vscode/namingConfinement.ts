import type { WorkspaceFs } from '../core/workspacePorts';
import type { Tool } from '../core/tools/tool';
import { PathRefusedError } from '../core/workspace/resolveInRoot';
import { capText } from '../core/text/capText';
import { visibleDirection } from '../core/text/visibleDirection';
import { canReadTextMany, type ManyTextReader, type ReadManyOptions, type TextVisitor } from '../core/workspace/readTextMany';

/** Longest folder name put into a refusal, in characters. */
const maxFolderNameChars = 120;

/**
 * A workspace folder's name as a refusal may quote it: one line (control characters and
 * quotes become `?`), text direction made visible, at most 120 characters.
 */
export function quotableFolderName(folderName: string): string {
  return visibleDirection(capText(folderName.replace(/[\u0000-\u001f\u007f-\u009f"]/g, '?'), maxFolderNameChars));
}

/** Maps a `PathRefusedError` to one whose reason ends with `confinement` (once); other errors stay as they are. */
function refusalNaming(confinement: string): (error: unknown) => unknown {
  const added = `; ${confinement}`;
  return (error) =>
    error instanceof PathRefusedError && !error.reason.endsWith(added) ? new PathRefusedError(error.path, `${error.reason}${added}`, error.hint) : error;
}

/**
 * `tools` whose refusals of a path (the tools check some paths themselves, before the
 * workspace sees them) end with `confinement`, as `namingConfinement` does for the
 * workspace's own refusals.
 */
export function toolsNamingConfinement(tools: readonly Tool[], confinement: string): Tool[] {
  const named = refusalNaming(confinement);
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
 * `workspace` (one folder of a workspace of several) with every refused path's reason
 * ending with `confinement`, the sentence naming the folder the run is confined to (its
 * name through `quotableFolderName`), so a path meant for another folder (`../other/x`,
 * an absolute path there, a link into it) is refused in words that say where the run may
 * write. What is refused, and everything else, is `workspace`'s own.
 */
export function namingConfinement(workspace: WorkspaceFs, confinement: string): WorkspaceFs & Partial<ManyTextReader> {
  const named = refusalNaming(confinement);
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
