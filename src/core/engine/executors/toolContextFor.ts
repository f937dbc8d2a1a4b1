import { upstreamSteps } from '../../plan/downstreamSteps';
import { filesChangedBySteps } from '../../tools/commandDefiningFiles';
import { changesOfSteps } from '../keptChanges';
import type { ToolContext } from '../../tools/tool';
import type { ExecuteContext } from './stepExecutor';

/** The context a tool gets when a step calls it directly or through its agent (one per attempt: what the attempt saw is tracked in it). */
export function toolContextFor(ctx: ExecuteContext): ToolContext {
  const { options, step } = ctx;
  // Walked only when a write asks what else changed its file: made for every step, they cost a pass over the whole plan
  // each, and a run of 10,000 read steps took 51 s instead of about 5 (npm run bench, the CLI's 10k/1k target).
  let upstream: Set<string> | undefined;
  let titles: Map<string, string> | undefined;
  return {
    runId: ctx.runId,
    stepId: step.id,
    stepTitle: step.title,
    workspace: options.workspace,
    interaction: ctx.interaction,
    approvalPolicy: options.approvalPolicy,
    clock: options.clock,
    logger: options.logger,
    ...(options.commandRunner ? { commandRunner: options.commandRunner } : {}),
    ...(options.allowedCommands ? { allowedCommands: options.allowedCommands } : {}),
    filesChangedInRun: () => filesChangedBySteps(changesOfSteps(ctx.state().steps)),
    // A step that failed or was skipped reported no success: a later write over what it left loses no change reported made.
    unrelatedChanges: (path) => {
      upstream ??= upstreamSteps(ctx.plan, step.id);
      titles ??= new Map(ctx.plan.steps.map((planned) => [planned.id, planned.title]));
      const ranAfter = upstream;
      const named = titles;
      return Object.entries(changesOfSteps(ctx.state().steps))
        .filter(([id, state]) => !ranAfter.has(id) && state.status !== 'failed' && state.status !== 'skipped' && state.filesChanged.includes(path))
        .map(([id]) => ({ id, title: named.get(id) ?? id }));
    },
    ...(ctx.state().startedAt === undefined ? {} : { runStartedAt: ctx.state().startedAt }),
    ...(options.checkpoints ? { checkpoints: options.checkpoints } : {}),
    commandLog: ctx.commandLog,
    // One per call of this function: an agent's attempt makes one context for all its tool calls.
    seenVersions: new Map(),
    ...(step.writes ? { writeScope: step.writes } : {}),
    output: ctx.output,
    progress: ctx.progress,
    withheld: ctx.withheld,
  };
}
