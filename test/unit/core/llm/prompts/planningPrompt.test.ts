import assert from 'node:assert/strict';
import { buildPlanningPrompt, renderWorkspace, strategyGuidance } from '../../../../../src/core/llm/prompts/planningPrompt';
import type { PlanningStrategy } from '../../../../../src/core/session/planningPrompt';
import { countTokens } from '../../../../../src/core/llm/tokenCount';
import { plannerOutputSchema } from '../../../../../src/core/plan/planSchema';
import { stepKinds } from '../../../../../src/shared/vocabulary';

describe('buildPlanningPrompt', () => {
  const base = { objective: 'Add tests', tools: [{ name: 'read_file', description: 'Reads a file.', parameters: { type: 'object' } }] };

  it('changes only the guidance text between strategies', () => {
    const strategies: PlanningStrategy[] = ['react', 'plan_act_reflect', 'goal_decompose_route_synthesise'];
    const systems = strategies.map((strategy) => String(buildPlanningPrompt({ ...base, strategy })[0]?.content));
    const neutral = systems.map((system, index) => system.replace(strategyGuidance[strategies[index]!], '<guidance>'));
    assert.equal(new Set(neutral).size, 1);
    assert.equal(new Set(systems).size, 3);
    const users = strategies.map((strategy) => JSON.stringify(buildPlanningPrompt({ ...base, strategy })[1]));
    assert.equal(new Set(users).size, 1);
  });

  it('says when no tools are available and carries feedback', () => {
    const [system, user] = buildPlanningPrompt({ objective: 'x', tools: [], strategy: 'react', feedback: 'Fewer steps please' });
    assert.match(String(system?.content), /No tools are available/);
    assert.match(String(user?.content), /Feedback on the previous plan.*\nFewer steps please/);
  });

  it('tells the model every step kind it may plan, and never offers a person\'s manual step', () => {
    const withTools = String(buildPlanningPrompt({ ...base, strategy: 'react' })[0]?.content);
    const kindRule = withTools.split('\n').find((line) => line.startsWith('- "kind": '))!;
    assert.deepEqual(stepKinds.filter((kind) => kindRule.includes(`"${kind}"`)), ['tool', 'agent', 'synthesis_gate', 'human_review', 'clarification']);
    const withoutTools = String(buildPlanningPrompt({ objective: 'x', tools: [], strategy: 'react' })[0]?.content);
    assert.match(withoutTools, /No tools are available: use only agent, synthesis_gate, human_review and clarification steps\./);
    const plannedKind = plannerOutputSchema.shape.steps.element.shape.kind;
    assert.deepEqual(stepKinds.filter((kind) => plannedKind.safeParse(kind).success), ['tool', 'agent', 'synthesis_gate', 'human_review', 'clarification']);
  });

  it('bounds the workspace section by tokens, with every part present when it fits', () => {
    const small = renderWorkspace({ rootLabel: 'demo', files: ['a.ts', 'b/c.ts'], openFiles: [{ path: 'a.ts', text: 'const a = 1;' }], attachments: [{ kind: 'link', ref: 'https://x.test' }] }, 1_000);
    assert.match(small, /Workspace: demo[\s\S]*Files \(2\):\na\.ts\nb\/c\.ts[\s\S]*--- a\.ts\nconst a = 1;[\s\S]*- link: https:\/\/x\.test/);
    for (const budget of [100, 500, 2_000]) {
      const large = renderWorkspace({ files: Array.from({ length: 5_000 }, (_, index) => `dir${index % 7}/sub/f${index}.ts`), openFiles: [{ path: 'big.txt', text: 'word '.repeat(20_000) }], attachments: Array.from({ length: 200 }, (_, index) => ({ kind: 'file' as const, ref: `f${index}` })) }, budget);
      assert.ok(countTokens(large) <= budget, `${countTokens(large)} > ${budget}`);
    }
  });
});
