import assert from 'node:assert/strict';
import Module from 'node:module';
import type * as vscode from 'vscode';
import type { Plan } from '../../../src/core/plan/planSchema';
import type * as RegisterModule from '../../../src/vscode/registerTaskFileCommands';
import type { TaskFileDeps, TaskFileSource } from '../../../src/vscode/taskFileCommands';
import { requireWithVscode } from '../../fakes/requireWithVscode';
import { makePlan, makeStep } from '../../support/randomPlans';

/** A `vscode.Uri` of a path, as far as the wiring reads one. */
class FakeUri {
  readonly scheme = 'file';
  readonly authority = '';
  constructor(readonly path: string) {}
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `file://${this.path}`;
  }
}

const folder = (name: string, index: number) => ({ name, index, uri: new FakeUri(`/ws/${name}`) }) as unknown as vscode.WorkspaceFolder;
const [mathlib, pytools] = [folder('mathlib', 0), folder('pytools', 1)];

// A multi-root trial: "Plan from file…" of pytools/TODO.md showed the plan under "mathlib workspace folder" (the folder the
// views followed), and its export was proposed in mathlib.
describe('Task file commands: the plan of a task file belongs to the file\'s folder (a workspace of two folders)', () => {
  const runtimePath = require.resolve('../../../src/vscode/runtime');
  const plan: Plan = makePlan([makeStep('S1')], { objective: 'Word count chores' });
  const seen: string[] = [];
  const handlers = new Map<string, (...args: unknown[]) => unknown>();
  let exported: Pick<TaskFileDeps, 'folderOf'> | undefined;

  // Put in place after the wiring is loaded: loading it afresh clears the editor code's modules, this stand-in among them.
  const standIn = () => {
    const runtime = new Module(runtimePath);
    runtime.exports = {
      vscodeTaskFileUi: {},
      planFromTaskFile: (source: TaskFileSource, deps: TaskFileDeps) => {
        seen.push(`read ${source.name}`);
        deps.showPlan(plan);
        return {};
      },
      exportPlanAsTaskFile: (_plan: Plan | undefined, deps: Pick<TaskFileDeps, 'folderOf'>) => {
        exported = deps;
        return undefined;
      },
    };
    runtime.loaded = true;
    require.cache[runtimePath] = runtime;
  };
  after(() => delete require.cache[runtimePath]);

  const register = () => {
    const { registerTaskFileCommands } = requireWithVscode<typeof RegisterModule>(require.resolve('../../../src/vscode/registerTaskFileCommands'), {
      Uri: FakeUri,
      commands: {
        registerCommand: (id: string, handler: (...args: unknown[]) => unknown) => void handlers.set(id, handler),
        executeCommand: async () => undefined,
      },
      languages: { registerCodeLensProvider: () => undefined },
      workspace: {
        workspaceFolders: [mathlib, pytools],
        getWorkspaceFolder: (uri: FakeUri) => [mathlib, pytools].find((candidate) => uri.path.startsWith(`${candidate.uri.path}/`)),
        openTextDocument: async () => ({ getText: () => '- [ ] Add a line count option\n' }),
        getConfiguration: () => ({ get: () => false }),
      },
    });
    standIn();
    const planFolders = new Map<string, vscode.WorkspaceFolder>();
    let current = mathlib;
    registerTaskFileCommands({
      tree: { setPlan: (shown: Plan) => void seen.push(`Plan view shows ${shown.objective} in ${current.name}`) } as never,
      runs: {
        planFor: (planId: string, planFolder: vscode.WorkspaceFolder) => void planFolders.set(planId, planFolder),
        planFolder: (planId: string) => planFolders.get(planId),
        useFolder: (used: vscode.WorkspaceFolder) => void (current = used),
        folder: () => current,
        start: async () => undefined,
      } as never,
      tools: () => [],
      review: () => async () => undefined,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined } as never,
      plan: () => plan,
      run: () => undefined,
      model: () => false,
    });
  };

  it('Plan from file shows the plan in the Plan view as the file\'s folder\'s, and its export is proposed there', async () => {
    register();
    await handlers.get('taskPlanner.planFromFile')!(new FakeUri('/ws/pytools/TODO.md'));
    assert.deepEqual(seen, ['read TODO.md', 'Plan view shows Word count chores in pytools']);
    await handlers.get('taskPlanner.exportPlanAsTaskFile')!();
    assert.equal(exported?.folderOf?.(plan)?.toString(), 'file:///ws/pytools');
  });
});
