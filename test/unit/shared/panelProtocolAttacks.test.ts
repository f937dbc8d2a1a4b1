import assert from 'node:assert/strict';
import { parseWebviewMessage, refusalReasonLimit } from '../../../src/shared/panelProtocol';
import { PanelSession } from '../../../src/core/view/panelSession';
import { makePlan, makeStep } from '../../support/randomPlans';

// A forged message from the panel's page, as JSON a stranger sends: refused with a bounded, inert reason, or applied safely.
function refusal(json: string): string {
  const parsed = parseWebviewMessage(JSON.parse(json));
  if (parsed.ok) assert.fail(`accepted ${json.slice(0, 80)}`);
  return parsed.error;
}

describe('attack: forged messages from the plan panel', () => {
  it('attack: a key of a megabyte holding escape sequences, direction overrides and line breaks is refused with a bounded reason on one line, controls shown (it was logged whole)', () => {
    const key = 'k\u001b[31m\u202e\n\u2028\r'.repeat(150_000);
    const reason = refusal(JSON.stringify({ type: 'cancelRun', runId: 'r', [key]: 1 }));
    assert.ok(reason.length <= refusalReasonLimit, `${reason.length} characters`);
    assert.match(reason, /Unrecognized key/);
    assert.doesNotMatch(reason, /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
    assert.match(reason, /\\u001b/);
  });

  it('attack: ten thousand wrong items are refused naming a few and how many more, bounded', () => {
    const reason = refusal(
      JSON.stringify({ type: 'edit', plan: { id: 'p', version: 1 }, edit: { type: 'makeManual', stepIds: Array.from({ length: 10_000 }, () => 5) } }),
    );
    assert.ok(reason.length <= refusalReasonLimit, `${reason.length} characters`);
    assert.match(reason, /edit\.stepIds\.0: /);
    assert.match(reason, /and 9,?995 more/);
  });

  it('attack: prototype keys and wrong types are refused, and pollute nothing', () => {
    for (const json of [
      '{"__proto__":{"type":"cancelRun","runId":"r"}}',
      '{"type":"__proto__"}',
      '{"type":"cancelRun","runId":"r","__proto__":{"polluted":1}}',
      '{"type":"edit","plan":{"id":"plan-test","version":1},"edit":{"type":"updateStep","stepId":"A","patch":{"__proto__":{"kind":"tool"}}}}',
      '{"type":"edit","plan":{"id":"plan-test","version":1},"edit":{"type":"addStep","step":{"id":"__proto__","title":"t","kind":"manual"}}}',
      '{"type":"edit","plan":{"id":"plan-test","version":1},"edit":{"type":"moveStep","stepId":"A","toIndex":1e300}}',
      '{"type":"start","version":"1"}',
      '{"type":"openFile","path":""}',
      `{"type":"regenerate","plan":{"id":"p","version":1},"feedback":"${'x'.repeat(5_000)}"}`,
      `{"type":"edit","plan":{"id":"p","version":1},"edit":{"type":"skipStep","stepId":"${'A'.repeat(100_000)}"}}`,
    ]) {
      const reason = refusal(json);
      assert.ok(reason.length > 0 && reason.length <= refusalReasonLimit, json.slice(0, 80));
    }
    assert.equal((Object.prototype as Record<string, unknown>)['polluted'], undefined);
  });

  it('attack: edits that pass the schema but would break the plan (a cycle, a self-dependency, a duplicate id, an unknown step) are refused by the session with a reason, and the plan stays as it was', () => {
    const session = new PanelSession('s1', []);
    const plan = makePlan([makeStep('A', { input: 'x' }), makeStep('B', { input: 'y', dependsOn: ['A'] })]);
    session.setPlan(plan);
    for (const json of [
      '{"type":"edit","plan":{"id":"plan-test","version":1},"edit":{"type":"updateStep","stepId":"A","patch":{"dependsOn":["B"]}}}',
      '{"type":"edit","plan":{"id":"plan-test","version":1},"edit":{"type":"addStep","step":{"id":"constructor","title":"t","kind":"manual","dependsOn":["constructor"]}}}',
      '{"type":"edit","plan":{"id":"plan-test","version":1},"edit":{"type":"addStep","step":{"id":"A","title":"t","kind":"manual"}}}',
      '{"type":"edit","plan":{"id":"plan-test","version":1},"edit":{"type":"makeManual","stepIds":["A","A","nope"]}}',
      '{"type":"edit","plan":{"id":"plan-test","version":1},"edit":{"type":"moveStep","stepId":"B","toIndex":0}}',
      '{"type":"edit","plan":{"id":"plan-test","version":1},"edit":{"type":"removeStep","stepId":"toString"}}',
    ]) {
      const parsed = parseWebviewMessage(JSON.parse(json));
      assert.ok(parsed.ok && parsed.message.type === 'edit', json);
      const result = session.applyEdit(parsed.message.edit);
      assert.ok(!result.ok, json);
      assert.ok(result.error.length > 0);
    }
    const steps = session.currentPlan()?.steps.map((step) => [step.id, step.dependsOn]);
    assert.deepEqual(steps, [['A', []], ['B', ['A']]]);
  });
});
