import assert from 'node:assert/strict';
import { critiquePlan } from '../../../../src/core/plan/critiquePlan';
import { pathArgumentProblems } from '../../../../src/core/plan/pathArgumentProblems';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { makePlan, makeStep } from '../../../support/randomPlans';

const toolStep = (tool: string, args: Record<string, unknown>) => makeStep('S1', { kind: 'tool', agent: undefined, input: undefined, tool, args });

// From a newcomer's trial: in a workspace of two folders, a plan editing "../app/README.md" scored 10/10, then failed at Start.
describe('pathArgumentProblems', () => {
  it('names a path or working folder the run would refuse, saying why and what to do', () => {
    assert.deepEqual(pathArgumentProblems(toolStep('edit_file', { path: '../app/README.md', edits: [] })), [
      'Step "S1": its path "../app/README.md" is refused: it climbs out of the workspace root with "..". ' +
        'Name a place inside the workspace folder (in a workspace of several folders, each plan works in one of them).',
    ]);
    assert.match(pathArgumentProblems(toolStep('run_command', { argv: ['ls'], cwd: 'a/../../b' }))[0] ?? '', /^Step "S1": its cwd "a\/\.\.\/\.\.\/b" is refused: /);
    assert.match(pathArgumentProblems(toolStep('read_file', { path: 'C:\\secrets.txt' }))[0] ?? '', /drive-letter paths are not allowed/);
  });

  it('leaves alone paths inside, absolute paths (the run knows the folder), templates, other programs\' tools and other steps', () => {
    for (const step of [
      toolStep('read_file', { path: 'src/../README.md' }),
      toolStep('read_file', { path: '/home/me/project/README.md' }),
      toolStep('read_file', { path: '{{results.S0.path}}' }),
      toolStep('read_file', { path: '$S0' }),
      toolStep('mcp__fs__read', { path: '../elsewhere' }),
      toolStep('read_file', { path: 42 }),
      makeStep('A', { input: 'edit ../app/README.md' }),
    ]) {
      assert.deepEqual(pathArgumentProblems(step), [], JSON.stringify(step.args ?? step.input));
    }
  });

  it('is a validation error, so the review blocks Start and the critique says it', () => {
    const plan = makePlan([toolStep('edit_file', { path: '../app/README.md', edits: [{ search: 'a', replace: 'b' }] })]);
    const tools = createToolRegistry(builtinTools());
    assert.deepEqual(validatePlan(plan, { tools }).map((diagnostic) => [diagnostic.code, diagnostic.severity]), [['invalid_args', 'error']]);
    const critique = critiquePlan(plan, { tools });
    assert.ok(critique.score <= 3 && critique.issues.some((issue) => issue.blocking === true), critique.summary);
  });
});
