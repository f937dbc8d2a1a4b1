// A run for the crash-between-a-change-and-its-journal test: started in a child process
// (`node --import tsx crashingChange.ts <workspace> <runsDir> <marker> <when>`). Its one step
// edits `version = 1` into `version = 1.1` (a change that could apply twice); the workspace
// stops for good right `before` or `after` the write lands, having said so in `marker`, and
// the test kills the process there with SIGKILL, then resumes the run itself.
import { writeFileSync } from 'node:fs';
import type { WorkspaceFs } from '../../src/core/workspacePorts';
import { builtinTools } from '../../src/core/tools/builtinTools';
import { createCheckpointFolder } from '../../src/node/checkpointFolder';
import { createFileRunStore } from '../../src/node/fileRunStore';
import { runPlan } from '../../src/node/nodeLibrary';
import { createNodeWorkspace } from '../../src/node/nodeWorkspace';
import { makePlan, makeStep } from './randomPlans';

export const changeRunId = 'change-crash-run';

/** One step that would apply twice if made again: its search text is still there after it. */
export const changePlan = makePlan([
  makeStep('bump', { kind: 'tool', agent: undefined, input: undefined, tool: 'edit_file', args: { path: 'version.txt', edits: [{ search: 'version = 1', replace: 'version = 1.1' }] } }),
]);

/** `workspace`, stopping for good at its first write of `version.txt`, `before` or `after` it lands, once `marker` says where. */
function stoppingAtWrite(workspace: WorkspaceFs, marker: string, when: 'before' | 'after'): WorkspaceFs {
  const forever = new Promise<never>(() => undefined);
  return {
    ...workspace,
    async writeText(path, text, signal, options) {
      if (path !== 'version.txt') return workspace.writeText(path, text, signal, options);
      if (when === 'after') await workspace.writeText(path, text, signal, options);
      writeFileSync(marker, when);
      // A pending promise alone does not keep a process alive: without a handle it would exit by itself, racing the kill.
      setInterval(() => undefined, 60_000);
      return forever;
    },
  };
}

if (require.main === module) {
  const [root, runsDir, marker, when] = process.argv.slice(2);
  if (!root || !runsDir || !marker || (when !== 'before' && when !== 'after')) throw new Error('usage: crashingChange.ts <workspace> <runsDir> <marker> before|after');
  void runPlan(changePlan, {
    store: createFileRunStore(runsDir),
    checkpoints: createCheckpointFolder(runsDir),
    idSource: () => changeRunId,
    workspace: stoppingAtWrite(createNodeWorkspace(root), marker, when),
    tools: builtinTools(),
    approvalPolicy: 'commandsOnly',
  }).result;
}
