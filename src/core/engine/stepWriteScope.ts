import type { Plan, Step } from '../plan/planSchema';
import type { ToolEffect, ToolRegistry } from '../tools/tool';
import type { WriteScope } from '../workspace/writeScope';
import type { StepKind } from '../../shared/vocabulary';

/** Whether a tool of each effect changes files the run cannot see beforehand (anything at all, for commands and other programs' tools). */
const writesFiles: Record<ToolEffect, 'file' | 'anything' | 'no'> = {
  read: 'no',
  interaction: 'no',
  network: 'no',
  write: 'file',
  delete: 'file',
  command: 'anything',
  external: 'anything',
};

/** Where each step kind may change files, given the step, its plan and the run's tools. */
const scopeOfKind: Record<StepKind, (step: Step, plan: Pick<Plan, 'agents'>, tools: ToolRegistry) => WriteScope> = {
  tool(step, _plan, tools) {
    const effect = step.tool === undefined ? undefined : tools.get(step.tool)?.effects;
    if (effect !== undefined && writesFiles[effect] === 'no') return { kind: 'nothing' };
    if (step.writes !== undefined) return { kind: 'patterns', patterns: step.writes };
    // A file tool names its file: that is its scope, unless a template decides it at run time.
    const path = step.args?.['path'];
    if (effect !== undefined && writesFiles[effect] === 'file' && typeof path === 'string' && !/\{\{|^\$/.test(path)) {
      return { kind: 'patterns', patterns: [path] };
    }
    return { kind: 'everything' };
  },
  agent(step, plan, tools) {
    if (step.writes !== undefined) return { kind: 'patterns', patterns: step.writes };
    const name = step.agent ?? 'default';
    // The built-in "default" agent gets every tool of the run, "direct" none (see executeLlmStep).
    const names = plan.agents[name]?.tools ?? (name === 'direct' ? [] : tools.names());
    const writes = names.some((tool) => {
      const effect = tools.get(tool)?.effects;
      return effect === undefined || writesFiles[effect] !== 'no';
    });
    return writes ? { kind: 'everything' } : { kind: 'nothing' };
  },
  synthesis_gate: () => ({ kind: 'nothing' }),
  human_review: () => ({ kind: 'nothing' }),
  clarification: () => ({ kind: 'nothing' }),
  manual: () => ({ kind: 'nothing' }),
};

/**
 * Where `step` may change files, for the scheduler: its declared `writes`; for a file
 * tool without one, the file it names; nothing for a step that cannot change files (a
 * read, a question, a model's answer); everything for a step that may change any file and
 * declared nothing (a command, an agent with tools that write), which then runs alone
 * among the run's writers.
 */
export function stepWriteScope(step: Step, plan: Pick<Plan, 'agents'>, tools: ToolRegistry): WriteScope {
  return scopeOfKind[step.kind](step, plan, tools);
}
