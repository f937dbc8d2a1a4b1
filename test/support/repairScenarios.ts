// Random executions that repair plans repair: a plan of plain steps S0… with a step bad1 among them whose failure asks
// for a repair plan, and a scripted model whose repairs replace bad<k> with bad<k+1> (which fails again) until `fix`.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LlmChatRequest } from '../../src/core/llm/llmTypes';
import type { Plan, Step } from '../../src/core/plan/planSchema';
import { scriptedLlm } from '../fakes/scriptedLlm';
import { makePlan, makeStep } from './randomPlans';

/** A plan with `bad1` among its plain steps, and how many repairs the execution needs: bad1 → bad2 → … → fix. */
export interface RepairScenario {
  plan: Plan;
  /** Plain steps (S*) and their dependencies; `bad1` sits among them. */
  specs: { id: string; dependsOn: string[] }[];
  badDependsOn: string[];
  repairs: number;
  /** Whether each step's input names the results it depends on (`{{results.X}}`), so a wrong result would show. */
  inputs: boolean;
}

/** Scenarios of 1–4 plain steps and 1–3 repairs; with `inputs`, each step's input names the results it depends on. */
export function repairScenarios(inputs: boolean): fc.Arbitrary<RepairScenario> {
  return fc
    .record({
      size: fc.integer({ min: 1, max: 4 }),
      picks: fc.array(fc.array(fc.nat(), { maxLength: 2 }), { minLength: 5, maxLength: 5 }),
      badPicks: fc.array(fc.nat(), { maxLength: 2 }),
      badAt: fc.nat(),
      onBad: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
      repairs: fc.integer({ min: 1, max: 3 }),
    })
    .map(({ size, picks, badPicks, badAt, onBad, repairs }) => {
      // bad1 sits after the first `at` steps; steps after it may depend on it.
      const at = badAt % (size + 1);
      const specs: { id: string; dependsOn: string[] }[] = [];
      for (let index = 0; index < size; index++) {
        const earlier = specs.map((spec) => spec.id);
        const deps = new Set((picks[index] ?? []).filter(() => earlier.length > 0).map((pick) => earlier[pick % earlier.length]!));
        if (index >= at && onBad[index]) deps.add('bad1');
        specs.push({ id: `S${index}`, dependsOn: [...deps] });
      }
      const before = specs.slice(0, at).map((spec) => spec.id);
      const badDependsOn = [...new Set(badPicks.filter(() => before.length > 0).map((pick) => before[pick % before.length]!))];
      const steps: Step[] = specs.map((spec) => makeStep(spec.id, { dependsOn: spec.dependsOn, ...(inputs ? { input: inputOf(spec.id, spec.dependsOn) } : {}) }));
      steps.splice(at, 0, makeStep('bad1', { dependsOn: badDependsOn, onFailure: 'replan' }));
      return { plan: makePlan(steps), specs, badDependsOn, repairs, inputs };
    });
}

/** The replacement of bad<k>: bad<k+1> (which fails again) or, after the last repair, fix. */
export function successorOf(scenario: RepairScenario, k: number): string {
  return k < scenario.repairs ? `bad${k + 1}` : 'fix';
}

/** The model: answers the repair of bad<k> with every step, bad<k> replaced by its successor (completed steps put back as they were). */
export function repairReplanner(scenario: RepairScenario): ReturnType<typeof scriptedLlm> {
  return scriptedLlm([
    (request: LlmChatRequest) => {
      const text = request.messages.map((message) => String(message.content)).join('\n');
      const failing = /Failed steps:\n- (bad(\d+)) /.exec(text);
      assert.ok(failing, `the replanner was asked to repair something else:\n${text.slice(0, 400)}`);
      const next = successorOf(scenario, Number(failing[2]));
      const rename = (ids: string[]): string[] => ids.map((id) => (id === 'bad1' ? next : id));
      const input = (id: string, dependsOn: string[]) => (scenario.inputs ? { input: inputOf(id, dependsOn) } : {});
      const steps = [
        ...scenario.specs.map((spec) => ({ id: spec.id, title: `Step ${spec.id}`, kind: 'agent', dependsOn: rename(spec.dependsOn), ...input(spec.id, rename(spec.dependsOn)) })),
        { id: next, title: `Step ${next}`, kind: 'agent', dependsOn: scenario.badDependsOn, ...(scenario.inputs ? { input: `do ${next}` } : {}), ...(next === 'fix' ? {} : { onFailure: 'replan' }) },
      ];
      return JSON.stringify({ objective: 'test objective', steps });
    },
  ]);
}

function inputOf(id: string, dependsOn: readonly string[]): string {
  return `do ${id} after ${dependsOn.map((dependency) => `{{results.${dependency}}}`).join(' ')}`;
}
