import assert from 'node:assert/strict';
import { z } from 'zod';
import { critiquePlan } from '../../../../src/core/plan/critiquePlan';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import type { Tool, ToolEffect } from '../../../../src/core/tools/tool';
import { gateByWorkspaceTrust } from '../../../../src/core/tools/workspaceTrustGate';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';
import { makePlan, makeStep } from '../../../support/randomPlans';

const effects: Record<ToolEffect, true> = { read: true, write: true, delete: true, command: true, network: true, interaction: true, external: true };
const named = (effect: ToolEffect): Tool => ({
  name: `t_${effect}`,
  description: effect,
  inputSchema: z.unknown(),
  effects: effect,
  run: () => Promise.resolve('ran'),
});

/** The effects for which `judged` holds, in the order of `effects`. */
const where = (judged: (effect: ToolEffect) => boolean): string[] => (Object.keys(effects) as ToolEffect[]).filter(judged);

describe('what a tool\'s declared effect means', () => {
  const tools = createToolRegistry((Object.keys(effects) as ToolEffect[]).map(named));
  const checks = (steps: Parameters<typeof makePlan>[0]) => critiquePlan(makePlan(steps), { tools }).issues.map((issue) => issue.check);

  it('the critic warns about approval turned off only for tools that change files or run something', () => {
    assert.deepEqual(
      where((effect) =>
        checks([makeStep('a', { kind: 'tool', agent: undefined, tool: `t_${effect}`, args: {}, requiresApproval: false, onFailure: 'skip' })]).includes(
          'destructive_without_approval',
        ),
      ),
      ['write', 'delete', 'command', 'external'],
    );
  });

  it('the critic warns about a critical step only for tools that can fail for outside reasons (the network, another program\'s service), not commands', () => {
    const dependedOn = (effect: ToolEffect) => [
      makeStep('a', { kind: 'tool', agent: undefined, tool: `t_${effect}`, args: {} }),
      makeStep('b', { dependsOn: ['a'] }),
    ];
    // A command fails the same way again (a missing program, a red suite): it is not transient (issue 29).
    assert.deepEqual(where((effect) => checks(dependedOn(effect)).includes('optimism_bias')), ['network', 'external']);
  });

  it('the critic wants the work checked only of an agent whose tools write or delete files', () => {
    const change = [makeStep('a', { agent: 'worker', input: 'Update the parser' })];
    assert.deepEqual(
      where((effect) =>
        critiquePlan(makePlan(change, { agents: { worker: { prompt: 'p', tools: [`t_${effect}`] } } }), { tools }).issues.some(
          (issue) => issue.check === 'unverified_change',
        ),
      ),
      ['write', 'delete'],
    );
  });

  it('Restricted Mode refuses every tool but reads and questions to the user', async () => {
    const gated = gateByWorkspaceTrust((Object.keys(effects) as ToolEffect[]).map(named), { isTrusted: () => false, onRefused: () => undefined });
    const outcomes = await Promise.all(gated.map((tool) => tool.run(makeToolContext(), {}, neverAborted).then(() => 'ran', () => 'refused')));
    assert.deepEqual(
      where((effect) => outcomes[gated.findIndex((tool) => tool.effects === effect)] === 'refused'),
      ['write', 'delete', 'command', 'network', 'external'],
    );
  });
});
