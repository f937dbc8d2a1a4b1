import assert from 'node:assert/strict';
import Module from 'node:module';
import type * as vscode from 'vscode';
import type { Plan } from '../../../src/core/plan/planSchema';
import type { PlanFileDeps } from '../../../src/vscode/planFileCommands';
import type * as RegisterModule from '../../../src/vscode/registerPlanFileCommands';
import { requireWithVscode } from '../../fakes/requireWithVscode';
import { makePlan, makeStep } from '../../support/randomPlans';

/** A `vscode.Uri` of a path, as far as the wiring reads one. */
class FakeUri {
  constructor(readonly path: string) {}
  toString(): string {
    return `file://${this.path}`;
  }
}

const folder = (name: string, index: number) => ({ name, index, uri: new FakeUri(`/ws/${name}`) }) as unknown as vscode.WorkspaceFolder;
const [mathlib, pytools] = [folder('mathlib', 0), folder('pytools', 1)];

// A multi-root trial: a plan read from a file of one folder was shown as the plan of the folder the views followed.
describe('Plan file commands: a plan file\'s plan belongs to the file\'s folder (a workspace of two folders)', () => {
  const runtimePath = require.resolve('../../../src/vscode/runtime');
  const plan: Plan = makePlan([makeStep('S1')], { objective: 'Run the tests' });
  const seen: string[] = [];
  const handlers = new Map<string, (...args: unknown[]) => unknown>();
  let saving: PlanFileDeps | undefined;
  after(() => delete require.cache[runtimePath]);

  it('Review plan file shows the plan as the file\'s folder\'s, and Save proposes the file there', async () => {
    const { registerPlanFileCommands } = requireWithVscode<typeof RegisterModule>(require.resolve('../../../src/vscode/registerPlanFileCommands'), {
      Uri: FakeUri,
      commands: {
        registerCommand: (id: string, handler: (...args: unknown[]) => unknown) => void handlers.set(id, handler),
        executeCommand: async () => undefined,
      },
      workspace: {
        workspaceFolders: [mathlib, pytools],
        getWorkspaceFolder: (uri: FakeUri) => [mathlib, pytools].find((candidate) => uri.path.startsWith(`${candidate.uri.path}/`)),
      },
    });
    // Put in place after the wiring is loaded: loading it afresh clears the editor code's modules, this stand-in among them.
    const runtime = new Module(runtimePath);
    runtime.exports = {
      vscodePlanFileUi: {},
      planFileDocument: async (uri: FakeUri) => ({ name: 'tests.plan.json', text: '{}', uri }),
      reviewPlanFile: async (_document: unknown, deps: PlanFileDeps) => {
        deps.showPlan(plan);
        return {};
      },
      savePlanAsFile: async (deps: PlanFileDeps) => void (saving = deps),
    };
    runtime.loaded = true;
    require.cache[runtimePath] = runtime;
    const planFolders = new Map<string, vscode.WorkspaceFolder>();
    let current = mathlib;
    registerPlanFileCommands({
      tree: { setPlan: (shown: Plan) => void seen.push(`Plan view shows ${shown.objective} in ${current.name}`), currentPlan: () => plan } as never,
      runs: {
        planFor: (planId: string, planFolder: vscode.WorkspaceFolder) => void planFolders.set(planId, planFolder),
        planFolder: (planId: string) => planFolders.get(planId),
        useFolder: (used: vscode.WorkspaceFolder) => void (current = used),
        folder: () => current,
      } as never,
      tools: () => [],
      review: () => async () => undefined,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined } as never,
      panel: () => undefined,
      holdTools: async () => ({ dispose: () => undefined }),
    });
    await handlers.get('taskPlanner.reviewPlanFile')!(new FakeUri('/ws/pytools/tests.plan.json'));
    assert.deepEqual(seen, ['Plan view shows Run the tests in pytools']);
    await handlers.get('taskPlanner.savePlanAsFile')!();
    assert.equal(saving?.folderOf?.(plan)?.toString(), 'file:///ws/pytools');
  });
});
