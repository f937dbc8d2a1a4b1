import { z } from 'zod';
import { visibleControls } from '../../shared/visibleCharacters';
import type { EditorProblem, Problems } from '../editorPorts';
import { capText } from '../text/capText';
import { oneLine } from '../text/oneLine';
import { workspacePath } from './fileChange';
import type { Tool, ToolContext } from './tool';
import { refuseWithheldRead, withheldReason } from './withheldFiles';

/** Most problems `get_diagnostics` returns at once (and its default); most characters of one message. */
export const getDiagnosticsLimits = { maxResults: 500, defaultResults: 100, maxMessageChars: 1000 } as const;

const inputSchema = z.strictObject({
  paths: z.array(z.string().min(1)).min(1).max(200).optional().describe('Workspace-relative files to check (default: every file with problems).'),
  maxResults: z
    .int()
    .min(1)
    .max(getDiagnosticsLimits.maxResults)
    .optional()
    .describe(`Most problems to return (default ${getDiagnosticsLimits.defaultResults}); errors come first.`),
});

/** What `get_diagnostics` returns: the problems shown (each bounded, controls escaped) and how many there are in all. */
export interface GetDiagnosticsOutput {
  problems: EditorProblem[];
  total: number;
}

/**
 * `get_diagnostics` over the editor's `problems`: the problems (errors, warnings,
 * information, hints) of given workspace files or of the whole workspace, with severity,
 * range, source and message, errors first, bounded in count and length. Paths are confined
 * to the workspace before the editor is asked. A file tools keep from the model (`withheldReason`: `.env`, a key, `.git`)
 * is neither given to the editor (refused, through links too) nor has its problems returned: their messages quote it (a
 * spell checker's "Unknown word (hunter2)").
 */
export function createGetDiagnosticsTool(problems: Problems): Tool<z.infer<typeof inputSchema>, GetDiagnosticsOutput> {
  return {
    name: 'get_diagnostics',
    description: `The problems the editor shows (type errors, lint warnings…) for the given workspace files, or for the whole workspace: severity, path, line and column (1-based), source and message, errors first, at most ${getDiagnosticsLimits.maxResults}. Use it after changing code to see whether it still compiles.`,
    inputSchema,
    effects: 'read',
    async run(ctx, input, signal) {
      const paths = input.paths?.map((path) => workspacePath(ctx, path));
      for (const [index, path] of (paths ?? []).entries()) await refuseWithheldRead(ctx, path, input.paths?.[index] ?? path, signal);
      ctx.progress?.(paths ? `reading the problems of ${paths.length} file${paths.length === 1 ? '' : 's'}` : "reading the workspace's problems");
      const found = await problems.list(paths, input.maxResults ?? getDiagnosticsLimits.defaultResults, signal);
      const shown = found.problems.filter((problem) => !kept(ctx, problem.path));
      return { problems: shown.map(safeProblem), total: found.total - (found.problems.length - shown.length) };
    },
  };
}

/** Whether a problem of `path` is left out: its file is kept from the model (`withheldReason`); tells `ctx.withheld`. */
function kept(ctx: ToolContext, path: string): boolean {
  if (withheldReason(path) === undefined) return false;
  ctx.withheld?.(path);
  return true;
}

function safeProblem(problem: EditorProblem): EditorProblem {
  return {
    ...problem,
    path: visibleControls(problem.path),
    message: capText(visibleControls(problem.message), getDiagnosticsLimits.maxMessageChars),
    ...(problem.source === undefined ? {} : { source: oneLine(visibleControls(problem.source), 100) }),
    ...(problem.code === undefined ? {} : { code: oneLine(visibleControls(problem.code), 100) }),
  };
}
