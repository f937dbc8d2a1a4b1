import assert from 'node:assert/strict';
import fc from 'fast-check';
import { editPlan, type EditPlanResult, type PlanEdit } from '../../../../src/core/plan/editPlan';
import type { Plan } from '../../../../src/core/plan/planSchema';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import { dagPlanArbitrary, makePlan, makeStep } from '../../../support/randomPlans';

const base = (): Plan => makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] }), makeStep('c')]);

function planOf(result: EditPlanResult): Plan {
  if (!result.ok) assert.fail(result.error);
  return result.plan;
}

function refusal(result: EditPlanResult): string {
  if (result.ok) assert.fail('expected the edit to be refused');
  return result.error;
}

describe('editPlan', () => {
  it('increments the version and leaves the input untouched', () => {
    const plan = base();
    const snapshot = structuredClone(plan);
    const next = planOf(editPlan(plan, { type: 'skipStep', stepId: 'c' }));
    assert.equal(next.version, plan.version + 1);
    assert.deepEqual(plan, snapshot);
  });

  describe('addStep', () => {
    it('appends with defaults', () => {
      const next = planOf(editPlan(base(), { type: 'addStep', step: { id: 'd', kind: 'agent', dependsOn: ['b'] } }));
      assert.deepEqual(next.steps.at(-1), { id: 'd', title: 'd', kind: 'agent', dependsOn: ['b'], onFailure: 'stop', maxAttempts: 1, critical: true, onVerificationFailure: 'stop' });
    });

    it('inserts at an index', () => {
      assert.deepEqual(planOf(editPlan(base(), { type: 'addStep', step: { id: 'z', kind: 'agent' }, index: 0 })).steps.map((step) => step.id), ['z', 'a', 'b', 'c']);
    });

    it('refuses a duplicate id, a bad index, an invalid step and a dangling dependency', () => {
      assert.match(refusal(editPlan(base(), { type: 'addStep', step: { id: 'a', kind: 'agent' } })), /already exists/);
      assert.match(refusal(editPlan(base(), { type: 'addStep', step: { id: 'z', kind: 'agent' }, index: 9 })), /outside the plan/);
      assert.match(refusal(editPlan(base(), { type: 'addStep', step: { id: 'z', kind: 'agent', maxAttempts: 0 } })), /maxAttempts/);
      assert.match(refusal(editPlan(base(), { type: 'addStep', step: { id: 'z', kind: 'agent', dependsOn: ['ghost'] } })), /"ghost"/);
    });

    it('refuses to put a step before its dependencies', () => {
      assert.match(refusal(editPlan(base(), { type: 'addStep', step: { id: 'z', kind: 'agent', dependsOn: ['c'] }, index: 1 })), /before its dependencies "c"/);
    });
  });

  describe('updateStep', () => {
    // A trial typed "argv: npm test" in a step's Checks and read "checks.0.argv: Invalid input: expected array, received string".
    it('refuses a step that is not valid in the words of the form: which check, which field, what it should be', () => {
      const result = editPlan(base(), { type: 'updateStep', stepId: 'a', patch: { checks: [{ kind: 'command', argv: 'npm test' }] as never } });
      assert.deepEqual(result, {
        ok: false,
        error: 'Step "a" is not valid: check 1, argv should be a list (one "- item" a line, or [a, b]), not a text.',
      });
    });

    it('patches fields but keeps the id', () => {
      const next = planOf(editPlan(base(), { type: 'updateStep', stepId: 'a', patch: { title: 'New', onFailure: 'retry', maxAttempts: 3 } }));
      assert.deepEqual([next.steps[0]!.id, next.steps[0]!.title, next.steps[0]!.onFailure, next.steps[0]!.maxAttempts], ['a', 'New', 'retry', 3]);
    });

    it('keeps the failure policy and the attempts consistent: leaving retry tries once, retry tries at least twice', () => {
      const retrying = planOf(editPlan(base(), { type: 'updateStep', stepId: 'a', patch: { onFailure: 'retry', maxAttempts: 3 } }));
      // The form sends every field: the attempts the retry had, unchanged, go with it.
      const stopped = planOf(editPlan(retrying, { type: 'updateStep', stepId: 'a', patch: { onFailure: 'stop', maxAttempts: 3 } }));
      assert.deepEqual([stopped.steps[0]!.onFailure, stopped.steps[0]!.maxAttempts], ['stop', 1]);
      const patched = planOf(editPlan(retrying, { type: 'updateStep', stepId: 'a', patch: { onFailure: 'skip' } }));
      assert.equal(patched.steps[0]!.maxAttempts, 1);
      const chosen = planOf(editPlan(retrying, { type: 'updateStep', stepId: 'a', patch: { onFailure: 'stop', maxAttempts: 4 } }));
      assert.equal(chosen.steps[0]!.maxAttempts, 4, 'attempts the user chose with the new policy stay');
      const once = planOf(editPlan(base(), { type: 'updateStep', stepId: 'a', patch: { onFailure: 'retry' } }));
      assert.equal(once.steps[0]!.maxAttempts, 2, 'retry with 1 attempt would never retry');
      const added = planOf(editPlan(base(), { type: 'addStep', step: { id: 'd', kind: 'agent', title: 'D', input: 'd', onFailure: 'retry', maxAttempts: 1 } }));
      assert.equal(added.steps[3]!.maxAttempts, 2);
    });

    it('refuses an unknown step, an invalid value and a broken predicate', () => {
      assert.match(refusal(editPlan(base(), { type: 'updateStep', stepId: 'ghost', patch: {} })), /no step "ghost"/);
      assert.match(refusal(editPlan(base(), { type: 'updateStep', stepId: 'a', patch: { onFailure: 'panic' as never } })), /onFailure/);
      assert.match(refusal(editPlan(base(), { type: 'updateStep', stepId: 'a', patch: { verification: 'result ===' } })), /verification predicate/);
    });
  });

  describe('removeStep', () => {
    it('removes a step nothing depends on', () => {
      assert.deepEqual(planOf(editPlan(base(), { type: 'removeStep', stepId: 'c' })).steps.map((step) => step.id), ['a', 'b']);
    });

    it('refuses while others depend on it, naming them', () => {
      assert.match(refusal(editPlan(base(), { type: 'removeStep', stepId: 'a' })), /"b" depend on it/);
    });

    it('drops the edges when asked', () => {
      const next = planOf(editPlan(base(), { type: 'removeStep', stepId: 'a', dropEdges: true }));
      assert.deepEqual(next.steps.map((step) => [step.id, step.dependsOn]), [['b', []], ['c', []]]);
    });

    // A newcomer's find (2026-12-01): in a plan of "then"s nothing could be removed from the panel.
    it('with the edges dropped, what waited on the step waits on what it waited on, so a chain keeps its order', () => {
      const chain = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] }), makeStep('c', { dependsOn: ['b', 'a'] }), makeStep('d', { dependsOn: ['b'] })]);
      const next = planOf(editPlan(chain, { type: 'removeStep', stepId: 'b', dropEdges: true }));
      assert.deepEqual(next.steps.map((step) => [step.id, step.dependsOn]), [['a', []], ['c', ['a']], ['d', ['a']]]);
      const used = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] }), makeStep('c', { dependsOn: ['b'], input: 'Sum up {{results.b}}' })]);
      assert.equal(
        refusal(editPlan(used, { type: 'removeStep', stepId: 'b', dropEdges: true })),
        'Step "b" cannot be removed: "c" uses its result. Change what "c" uses first.',
      );
      // The second attacker's find (2026-12-01): a `when` and a `verification` reading the removed step's result.
      const read = makePlan([
        makeStep('T'),
        makeStep('C', { dependsOn: ['T'], when: 'depends.T.exitCode !== 0' }),
        makeStep('V', { dependsOn: ['T'], verification: "depends['T'].ok === true" }),
        makeStep('U', { dependsOn: ['T'], when: 'depends.Tx === undefined' }),
      ]);
      assert.match(refusal(editPlan(read, { type: 'removeStep', stepId: 'T', dropEdges: true })), /^Step "T" cannot be removed: "C", "V" use its result\./);
    });

    it('refuses to remove the last step', () => {
      assert.match(refusal(editPlan(makePlan([makeStep('a')]), { type: 'removeStep', stepId: 'a' })), /no steps/);
    });
  });

  describe('moveStep', () => {
    it('moves a step', () => {
      assert.deepEqual(planOf(editPlan(base(), { type: 'moveStep', stepId: 'c', toIndex: 0 })).steps.map((step) => step.id), ['c', 'a', 'b']);
    });

    it('refuses to move a step before a dependency', () => {
      assert.match(refusal(editPlan(base(), { type: 'moveStep', stepId: 'b', toIndex: 0 })), /before its dependencies "a"/);
    });

    it('refuses to move a step after a dependent', () => {
      assert.match(refusal(editPlan(base(), { type: 'moveStep', stepId: 'a', toIndex: 2 })), /after "b", which depend on it/);
    });

    it('refuses an index outside the plan', () => {
      assert.match(refusal(editPlan(base(), { type: 'moveStep', stepId: 'a', toIndex: -1 })), /outside the plan/);
    });
  });

  describe('setDependencies', () => {
    it('replaces the dependencies, without duplicates', () => {
      assert.deepEqual(planOf(editPlan(base(), { type: 'setDependencies', stepId: 'c', dependsOn: ['a', 'b', 'a'] })).steps[2]!.dependsOn, ['a', 'b']);
    });

    it('refuses a cycle, a self-dependency and an unknown step', () => {
      assert.match(refusal(editPlan(base(), { type: 'setDependencies', stepId: 'a', dependsOn: ['b'] })), /cycle/);
      assert.match(refusal(editPlan(base(), { type: 'setDependencies', stepId: 'a', dependsOn: ['a'] })), /depends on itself/);
      assert.match(refusal(editPlan(base(), { type: 'setDependencies', stepId: 'a', dependsOn: ['ghost'] })), /"ghost"/);
    });
  });

  describe('skipStep and unskipStep', () => {
    it('marks and unmarks a step as skipped', () => {
      const skipped = planOf(editPlan(base(), { type: 'skipStep', stepId: 'b' }));
      assert.equal(skipped.steps[1]!.skipped, true);
      const unskipped = planOf(editPlan(skipped, { type: 'unskipStep', stepId: 'b' }));
      assert.equal('skipped' in unskipped.steps[1]!, false);
      assert.equal(unskipped.version, 3);
    });
  });

  it('allows edits to a plan that already has errors when they add none', () => {
    const broken = makePlan([makeStep('a', { dependsOn: ['ghost'] }), makeStep('b')]);
    assert.ok(editPlan(broken, { type: 'skipStep', stepId: 'b' }).ok);
    assert.ok(editPlan(broken, { type: 'setDependencies', stepId: 'a', dependsOn: [] }).ok);
  });

  it('never yields a plan that fails validation, whatever the edits', () => {
    const editArbitrary = fc.oneof(
      fc.record({ type: fc.constant('addStep' as const), id: fc.constantFrom('n1', 'n2', 'S0', 'S3'), deps: fc.array(fc.constantFrom('S0', 'S1', 'S2', 'S5', 'n1', 'ghost'), { maxLength: 3 }), index: fc.option(fc.integer({ min: -1, max: 30 }), { nil: undefined }) }),
      fc.record({ type: fc.constant('removeStep' as const), id: fc.constantFrom('S0', 'S1', 'S4', 'n1'), dropEdges: fc.boolean() }),
      fc.record({ type: fc.constant('moveStep' as const), id: fc.constantFrom('S0', 'S1', 'S2', 'S6'), toIndex: fc.integer({ min: -1, max: 30 }) }),
      fc.record({ type: fc.constant('setDependencies' as const), id: fc.constantFrom('S0', 'S1', 'S2', 'S3'), deps: fc.array(fc.constantFrom('S0', 'S1', 'S2', 'S3', 'S4', 'ghost'), { maxLength: 3 }) }),
      fc.record({ type: fc.constantFrom('skipStep' as const, 'unskipStep' as const), id: fc.constantFrom('S0', 'S1') }),
      fc.record({ type: fc.constant('updateStep' as const), id: fc.constantFrom('S0', 'S2'), verification: fc.constantFrom('result.ok', 'result ===', '(') }),
    );
    const toEdit = (raw: Record<string, unknown>): PlanEdit => {
      const id = raw.id as string;
      switch (raw.type) {
        case 'addStep': return { type: 'addStep', step: { id, kind: 'agent', dependsOn: raw.deps as string[] }, ...(raw.index === undefined ? {} : { index: raw.index as number }) };
        case 'removeStep': return { type: 'removeStep', stepId: id, dropEdges: raw.dropEdges as boolean };
        case 'moveStep': return { type: 'moveStep', stepId: id, toIndex: raw.toIndex as number };
        case 'setDependencies': return { type: 'setDependencies', stepId: id, dependsOn: raw.deps as string[] };
        case 'updateStep': return { type: 'updateStep', stepId: id, patch: { verification: raw.verification as string } };
        default: return { type: raw.type as 'skipStep', stepId: id };
      }
    };
    fc.assert(fc.property(dagPlanArbitrary, fc.array(editArbitrary, { maxLength: 12 }), (start, edits) => {
      let plan = start;
      for (const raw of edits) {
        const result = editPlan(plan, toEdit(raw));
        if (!result.ok) {
          assert.ok(result.error.length > 0);
          continue;
        }
        assert.equal(result.plan.version, plan.version + 1);
        plan = result.plan;
        assert.deepEqual(validatePlan(plan).filter((diagnostic) => diagnostic.severity === 'error'), []);
      }
    }), { numRuns: 300 });
  });
  it('changing a step\'s kind drops the verification fields the new kind cannot have, and keeps those it can', () => {
    const plan = makePlan([makeStep('a', { outputSchema: { type: 'object' }, review: true })]);
    const tool = planOf(editPlan(plan, { type: 'updateStep', stepId: 'a', patch: { kind: 'tool', tool: 'read_file', args: { path: 'x' } } })).steps[0];
    assert.deepEqual([tool?.outputSchema, tool?.review], [undefined, true]);
    const gate = planOf(editPlan(plan, { type: 'updateStep', stepId: 'a', patch: { kind: 'synthesis_gate' } })).steps[0];
    assert.deepEqual([gate?.outputSchema, gate?.review], [{ type: 'object' }, true]);
    const question = planOf(editPlan(plan, { type: 'updateStep', stepId: 'a', patch: { kind: 'clarification' } })).steps[0];
    assert.deepEqual([Object.hasOwn(question ?? {}, 'outputSchema'), Object.hasOwn(question ?? {}, 'review')], [false, false]);
    assert.match(refusal(editPlan(makePlan([makeStep('t', { kind: 'tool', tool: 'read_file' })]), { type: 'updateStep', stepId: 't', patch: { outputSchema: { type: 'object' } } })), /has an output schema/);
  });

  // A newcomer's find (2026-12-01): changing S002's path from docs/TODO.md to docs/ROADMAP.md left "Checks: file exists
  // docs/TODO.md" and "Changes only: docs/TODO.md"; the run wrote ROADMAP.md, asked about a change outside the step's files
  // and failed the old file's check.
  it('an argument edited from one value to another takes the checks, the files the step changes and the title with it', () => {
    const step = makeStep('w', {
      kind: 'tool',
      agent: undefined,
      title: 'Create docs/TODO.md',
      tool: 'write_file',
      args: { path: 'docs/TODO.md', content: '' },
      writes: ['docs/TODO.md', 'docs/**'],
      checks: [
        { kind: 'file_exists', path: 'docs/TODO.md' },
        { kind: 'file_contains', path: 'docs/TODO.md.bak', text: 'x' },
        { kind: 'command', argv: ['ls', 'docs/TODO.md'] },
      ],
    });
    const plan = makePlan([step]);
    // The panel's form sends the title it did not change with the edit (the second newcomer's find, 2026-12-01).
    const renamed = planOf(editPlan(plan, { type: 'updateStep', stepId: 'w', patch: { args: { path: 'docs/ROADMAP.md', content: '' }, title: 'Create docs/TODO.md' } })).steps[0];
    assert.equal(renamed?.title, 'Create docs/ROADMAP.md');
    assert.deepEqual(renamed?.writes, ['docs/ROADMAP.md', 'docs/**']);
    assert.deepEqual(renamed?.checks, [
      { kind: 'file_exists', path: 'docs/ROADMAP.md' },
      { kind: 'file_contains', path: 'docs/TODO.md.bak', text: 'x' },
      { kind: 'command', argv: ['ls', 'docs/TODO.md'] },
    ], 'only a value that is exactly the old one follows it');
    const own = planOf(editPlan(plan, { type: 'updateStep', stepId: 'w', patch: { args: { path: 'docs/ROADMAP.md' }, title: 'Mine', writes: ['docs/TODO.md'] } })).steps[0];
    assert.deepEqual([own?.title, own?.writes, own?.checks?.[0]], ['Mine', ['docs/TODO.md'], { kind: 'file_exists', path: 'docs/ROADMAP.md' }], 'what the edit sets is the user\'s');
    // The second attacker's find (2026-12-01): a content changed from "a" to "tools" moved a check's cwd and rewrote the title.
    const content = makeStep('c', {
      kind: 'tool',
      agent: undefined,
      title: 'Write a changelog to CHANGELOG.md',
      tool: 'write_file',
      args: { path: 'CHANGELOG.md', content: 'a' },
      checks: [{ kind: 'command', argv: ['npm', 'test'], cwd: 'a' }],
    });
    const edited = planOf(editPlan(makePlan([content]), { type: 'updateStep', stepId: 'c', patch: { args: { path: 'CHANGELOG.md', content: 'tools' } } })).steps[0];
    assert.deepEqual([edited?.title, edited?.checks], [content.title, content.checks], 'only a path argument renames');
    const titled = makeStep('t', { kind: 'tool', agent: undefined, title: 'Create docs/TODO.md, not docs/TODO.md.bak', tool: 'write_file', args: { path: 'docs/TODO.md', content: '' } });
    const retitled = planOf(editPlan(makePlan([titled]), { type: 'updateStep', stepId: 't', patch: { args: { path: 'docs/NEW.md', content: '' } } })).steps[0];
    assert.equal(retitled?.title, 'Create docs/NEW.md, not docs/TODO.md.bak', 'the old path where it stands whole');
  });

  it('changing an agent step to another kind drops its skills, which only an agent uses', () => {
    const plan = makePlan([makeStep('a', { skills: ['release'] })]);
    const tool = planOf(editPlan(plan, { type: 'updateStep', stepId: 'a', patch: { kind: 'tool', tool: 'read_file', args: { path: 'x' } } })).steps[0];
    assert.equal(Object.hasOwn(tool ?? {}, 'skills'), false);
    const renamed = planOf(editPlan(plan, { type: 'updateStep', stepId: 'a', patch: { title: 'Renamed' } })).steps[0];
    assert.deepEqual(renamed?.skills, ['release']);
    const manual = planOf(editPlan(plan, { type: 'makeManual', stepIds: ['a'] })).steps[0];
    assert.equal(Object.hasOwn(manual ?? {}, 'skills'), false);
  });

  describe('makeManual ("Do them myself")', () => {
    it('hands agent and gate steps to the user, keeping ids, dependencies and policy, as the next version', () => {
      const plan = makePlan([
        makeStep('a', { input: 'Draft the summary' }),
        makeStep('g', { kind: 'synthesis_gate', input: '', dependsOn: ['a'], onFailure: 'skip' }),
        makeStep('t', { kind: 'tool', tool: 'read_file', args: { path: 'x' }, agent: undefined, input: undefined }),
      ]);
      const next = planOf(editPlan(plan, { type: 'makeManual', stepIds: ['a', 'g'] }));
      assert.equal(next.version, plan.version + 1);
      const [a, g, t] = next.steps;
      assert.deepEqual([a?.kind, a?.input, a?.agent], ['manual', 'Draft the summary', undefined]);
      // a gate without its own input becomes instructions from its title
      assert.deepEqual([g?.kind, g?.input, g?.dependsOn, g?.onFailure], ['manual', 'Step g', ['a'], 'skip']);
      assert.deepEqual(t, plan.steps[2]);
      assert.deepEqual(validatePlan(next).filter((diagnostic) => diagnostic.severity === 'error'), []);
    });

    it('drops the output schema and the review a person\'s step cannot have, so the plan stays valid', () => {
      const plan = makePlan([makeStep('a', { outputSchema: { type: 'object' }, review: true })]);
      const [a] = planOf(editPlan(plan, { type: 'makeManual', stepIds: ['a'] })).steps;
      assert.equal(a?.kind, 'manual');
      assert.equal(Object.hasOwn(a ?? {}, 'outputSchema'), false);
      assert.equal(Object.hasOwn(a ?? {}, 'review'), false);
    });

    it('refuses steps that are not a model\'s to hand over, and unknown ids, changing nothing', () => {
      const plan = makePlan([makeStep('a'), makeStep('q', { kind: 'clarification', input: 'Which?' })]);
      assert.match(refusal(editPlan(plan, { type: 'makeManual', stepIds: ['a', 'q'] })), /"q" \(clarification\) is not/);
      assert.match(refusal(editPlan(plan, { type: 'makeManual', stepIds: ['ghost'] })), /no step "ghost"/);
    });
  });

  describe('setContextTags', () => {
    it("sets the plan's topics trimmed and each once, leaves the steps alone, and an empty list removes them", () => {
      const plan = base();
      const tagged = planOf(editPlan(plan, { type: 'setContextTags', tags: [' docs ', 'release', 'docs', ''] }));
      assert.deepEqual([tagged.contextTags, tagged.version, tagged.steps], [['docs', 'release'], plan.version + 1, plan.steps]);
      assert.equal(plan.contextTags, undefined, 'the input plan is not mutated');
      const cleared = planOf(editPlan(tagged, { type: 'setContextTags', tags: ['  '] }));
      assert.equal(Object.hasOwn(cleared, 'contextTags'), false);
      assert.equal(cleared.version, tagged.version + 1);
    });
  });

  it("names an agent step's skills once each, trimmed, and an edit that leaves none removes them", () => {
    const plan = makePlan([makeStep('a', { skills: ['release'] })]);
    const renamed = planOf(editPlan(plan, { type: 'updateStep', stepId: 'a', patch: { skills: [' docs', 'release', 'docs '] } }));
    assert.deepEqual(renamed.steps[0]?.skills, ['docs', 'release']);
    const emptied = planOf(editPlan(renamed, { type: 'updateStep', stepId: 'a', patch: { skills: [' '] } }));
    assert.equal(Object.hasOwn(emptied.steps[0] ?? {}, 'skills'), false);
    const added = planOf(editPlan(plan, { type: 'addStep', step: { id: 'n', kind: 'agent', title: 'New', skills: [] } }));
    assert.equal(Object.hasOwn(added.steps[1] ?? {}, 'skills'), false);
  });

  describe('keeps steps after what they depend on (a newcomer\'s trial: a step given a dependency listed below it stayed first)', () => {
    const listed = (): Plan => makePlan([makeStep('S1'), makeStep('S2'), makeStep('S3', { dependsOn: ['S2'] }), makeStep('S4'), makeStep('S5')]);

    it('moves a step given a dependency below it to just after that dependency, with the steps that wait on it', () => {
      const next = planOf(editPlan(listed(), { type: 'updateStep', stepId: 'S2', patch: { dependsOn: ['S4'] } }));
      assert.deepEqual(next.steps.map((step) => step.id), ['S1', 'S4', 'S2', 'S3', 'S5']);
      const set = planOf(editPlan(listed(), { type: 'setDependencies', stepId: 'S1', dependsOn: ['S5'] }));
      assert.deepEqual(set.steps.map((step) => step.id), ['S2', 'S3', 'S4', 'S5', 'S1']);
    });

    it('leaves the order alone when the dependencies allow it', () => {
      const plan = listed();
      const next = planOf(editPlan(plan, { type: 'updateStep', stepId: 'S5', patch: { dependsOn: ['S1'] } }));
      assert.deepEqual(next.steps.map((step) => step.id), plan.steps.map((step) => step.id));
    });
  });
});
