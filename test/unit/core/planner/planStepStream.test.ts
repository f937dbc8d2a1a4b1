import assert from 'node:assert/strict';
import { createPlanStepStream, type PlannerStep } from '../../../../src/core/planner/planStepStream';

describe('createPlanStepStream', () => {
  const plan = JSON.stringify({ objective: 'o', steps: [{ id: 'A', title: 'a', kind: 'agent', dependsOn: [], input: 'x {"nested": [1]}' }, { id: 'B', title: 'b', kind: 'tool', tool: 't', args: { deep: { list: [1, { k: 'v' }] } }, dependsOn: ['A'] }] });

  const feed = (text: string, size: number): { seen: [number, string][]; at: number[] } => {
    const seen: [number, string][] = [];
    const at: number[] = [];
    let fed = 0;
    const push = createPlanStepStream((step: PlannerStep, index) => {
      seen.push([index, step.id]);
      at.push(fed);
    });
    for (let start = 0; start < text.length; start += size) {
      fed = Math.min(text.length, start + size);
      push({ kind: 'text', text: text.slice(start, start + size) });
    }
    return { seen, at };
  };

  it('emits each step when its object closes, whatever the chunking', () => {
    for (const size of [1, 3, 17, plan.length]) {
      const { seen, at } = feed(plan, size);
      assert.deepEqual(seen, [[0, 'A'], [1, 'B']], `chunk size ${size}`);
      if (size === 1) assert.equal(at[0], plan.indexOf(',{"id":"B"'), 'emitted on its closing brace');
    }
  });

  it('skips prose and a code fence before the JSON and ignores what follows it', () => {
    const { seen } = feed(`Here you go:\n\`\`\`json\n${plan}\n\`\`\`\nDone.`, 5);
    assert.deepEqual(seen, [[0, 'A'], [1, 'B']]);
  });

  it('drops steps that do not match the planner step schema and stops quietly on broken JSON', () => {
    const { seen } = feed('{"steps": [{"id": "A"}, {"id": "B", "title": "b", "kind": "agent", "dependsOn": []}, {"id": oops}]}', 4);
    assert.deepEqual(seen, [[1, 'B']]);
  });

  it('starts over after a retry delta', () => {
    const seen: string[] = [];
    const push = createPlanStepStream((step, index) => seen.push(`${index}${step.id}`));
    push({ kind: 'text', text: plan.slice(0, plan.indexOf(',{"id":"B"') + 5) });
    push({ kind: 'retry', attempt: 2, reason: 'cut' });
    push({ kind: 'text', text: plan });
    assert.deepEqual(seen, ['0A', '0A', '1B']);
  });

  it('ignores tool-call deltas, before and inside the plan', () => {
    const seen: string[] = [];
    const push = createPlanStepStream((step) => seen.push(step.id));
    push({ kind: 'tool_call', index: 0, argumentsDelta: '{"x"' });
    push({ kind: 'text', text: plan.slice(0, 20) });
    push({ kind: 'tool_call', index: 0, argumentsDelta: ': 1}' });
    push({ kind: 'text', text: plan.slice(20) });
    assert.deepEqual(seen, ['A', 'B']);
  });
});
