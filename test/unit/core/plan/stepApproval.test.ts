import assert from 'node:assert/strict';
import { z } from 'zod';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { CommandRunner } from '../../../../src/core/commandPorts';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { stepApproval, type StepApproval } from '../../../../src/core/plan/stepApproval';
import type { ApprovalPolicy, Tool } from '../../../../src/core/tools/tool';
import { gateByWorkspaceTrust } from '../../../../src/core/tools/workspaceTrustGate';
import { answeringInteraction } from '../../../fakes/answeringInteraction';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makePlan, makeStep } from '../../../support/randomPlans';

const peekUrl: Tool = { name: 'peek_url', description: 'Looks at a URL', inputSchema: z.object({}), effects: 'network', run: () => Promise.resolve('page') };
const tools = [...builtinTools(), peekUrl];
const commandRunner: CommandRunner = {
  describeCwd: async (cwd) => cwd || '.',
  run: async () => ({ exitCode: 0, signal: null, stdout: 'ok', stderr: '', timedOut: false, truncated: false, durationMs: 1 }),
};
const toolStep = (id: string, tool: string, args: Record<string, unknown>, patch = {}) =>
  makeStep(id, { kind: 'tool', tool, args, agent: undefined, input: undefined, critical: false, ...patch });
// requiresApproval as a plan may set it, the opposite of what happens: the tools do not read it.
const plan = makePlan([
  toolStep('write', 'write_file', { path: 'out.txt', content: 'x' }, { requiresApproval: false }),
  toolStep('mkdir', 'create_directory', { path: 'made' }),
  toolStep('delete', 'delete_file', { path: 'old.txt' }),
  toolStep('command', 'run_command', { argv: ['npm', 'test'] }, { requiresApproval: false }),
  toolStep('read', 'read_file', { path: 'old.txt' }, { requiresApproval: true }),
]);
// No built-in tool reaches the network; a tool that does asks as `needsApproval` says (only under `always`).
const withNetwork = makePlan([...plan.steps, toolStep('peek', 'peek_url', {})]);
const policies: ApprovalPolicy[] = ['always', 'writesAndCommands', 'commandsOnly'];

/** Runs the plan approving everything; the steps that asked, and those Restricted Mode refused. */
async function whatTheRunDid(policy: ApprovalPolicy, trusted: boolean): Promise<{ asked: string[]; refused: string[] }> {
  const interaction = answeringInteraction({ approval: () => ({ approved: true }) });
  const refused: string[] = [];
  const gated = gateByWorkspaceTrust(tools, { isTrusted: () => trusted, onRefused: (refusal) => refused.push(refusal.stepId) });
  const result = await runPlan(plan, {
    tools: gated,
    workspace: createMemoryWorkspace({ 'old.txt': 'old' }),
    commandRunner,
    interaction,
    approvalPolicy: policy,
    clock: new ManualClock(0, { autoAdvance: true }),
  }).result;
  assert.ok(result.status === 'completed' || !trusted, `${policy}: ${result.metadata.reason ?? result.status}`);
  return { asked: [...new Set(interaction.asked.map((request) => request.stepId))].sort(), refused: refused.sort() };
}

function tagged(policy: ApprovalPolicy, trusted: boolean, tag: StepApproval, of = plan): string[] {
  const registry = createToolRegistry(tools);
  return of.steps.filter((step) => stepApproval(step, of, registry, { policy, trusted }) === tag).map((step) => step.id);
}

describe('stepApproval: the review says what the run will do', () => {
  for (const policy of policies) {
    it(`tags exactly the steps that ask under ${policy}`, async () => {
      const { asked } = await whatTheRunDid(policy, true);
      assert.deepEqual(tagged(policy, true, 'asks').sort(), asked);
    });

    it(`tags exactly the steps Restricted Mode refuses under ${policy}, none of which asks`, async () => {
      const { asked, refused } = await whatTheRunDid(policy, false);
      assert.deepEqual(asked, []);
      assert.deepEqual(tagged(policy, false, 'refused').sort(), refused);
      assert.deepEqual(tagged(policy, false, 'asks'), []);
    });
  }

  it('names what each policy does to each effect', () => {
    assert.deepEqual(tagged('always', true, 'asks', withNetwork), ['write', 'mkdir', 'delete', 'command', 'peek']);
    assert.deepEqual(tagged('writesAndCommands', true, 'asks', withNetwork), ['write', 'mkdir', 'delete', 'command']);
    assert.deepEqual(tagged('commandsOnly', true, 'asks', withNetwork), ['command']);
    assert.deepEqual(tagged('commandsOnly', false, 'refused', withNetwork), ['write', 'mkdir', 'delete', 'command', 'peek']);
  });

  it('says an agent may ask when one of its tools would, and judges the built-in tools without a registry', () => {
    const agents = makePlan(
      [
        makeStep('reader', { agent: 'reader' }),
        makeStep('writer', { agent: 'writer' }),
        makeStep('default'),
        makeStep('direct', { agent: 'direct' }),
        makeStep('ghost', { agent: 'ghost' }),
        makeStep('gate', { kind: 'synthesis_gate', agent: undefined }),
        toolStep('unknown', 'no_such_tool', {}),
      ],
      { agents: { reader: { prompt: 'r', tools: ['read_file', 'ask_user'] }, writer: { prompt: 'w', tools: ['read_file', 'write_file'] } } },
    );
    const of = (policy: ApprovalPolicy, trusted = true) => agents.steps.map((step) => stepApproval(step, agents, undefined, { policy, trusted }));
    assert.deepEqual(of('writesAndCommands'), ['none', 'mayAsk', 'mayAsk', 'none', 'none', 'none', 'none']);
    // the default agent still has run_command, which always asks; the writer's write does not ask under commandsOnly
    assert.deepEqual(of('commandsOnly'), ['none', 'none', 'mayAsk', 'none', 'none', 'none', 'none']);
    // in Restricted Mode the tools that would ask are refused instead
    assert.deepEqual(of('always', false), ['none', 'none', 'none', 'none', 'none', 'none', 'none']);
  });
});
