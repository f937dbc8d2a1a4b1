import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parsePlan, type ParsePlanResult } from '../../../../src/core/plan/parsePlan';
import { planSchema, type Plan } from '../../../../src/core/plan/planSchema';

function planOf(result: ParsePlanResult): Plan {
  if (!result.ok) assert.fail(`expected a plan, got errors: ${result.errors.join('; ')}`);
  return result.plan;
}

function warningsOf(result: ParsePlanResult): string[] {
  assert.ok(result.ok);
  return result.warnings;
}

describe('parsePlan', () => {
  describe('input forms', () => {
    it('accepts an object', () => {
      const plan = planOf(parsePlan({ objective: 'x', steps: [{ id: 'a', input: 'do a' }] }));
      assert.equal(plan.objective, 'x');
      assert.deepEqual(plan.steps.map((step) => step.id), ['a']);
    });

    it('accepts a JSON string', () => {
      assert.equal(planOf(parsePlan('{"steps":[{"id":"a"}]}')).steps[0]!.id, 'a');
    });

    it('repairs code fences, trailing commas, comments and single quotes', () => {
      const text = "```json\n{\n  // the plan\n  'steps': [{'id': 'a', 'input': 'x',},],\n}\n```";
      assert.equal(planOf(parsePlan(text)).steps[0]!.id, 'a');
    });

    it('drops prose around the JSON', () => {
      const plan = planOf(parsePlan('Here is the plan you asked for:\n{"steps": ["read it"]}\nHope this helps!'));
      assert.equal(plan.steps[0]!.input, 'read it');
    });

    it('accepts a bare array as the step list', () => {
      assert.equal(planOf(parsePlan(['one', 'two'])).steps.length, 2);
    });

    it('reports unrepairable text as an error, not an exception', () => {
      const result = parsePlan('');
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.errors[0]!, /empty/);
    });

    it('reports a missing step list with the keys it looked for', () => {
      const result = parsePlan({ objective: 'x' });
      assert.ok(!result.ok);
      assert.match(result.errors[0]!, /"steps".*"tasks".*"workflow".*"phases"/);
    });

    it('reports non-objects', () => {
      assert.equal(parsePlan(42).ok, false);
      assert.equal(parsePlan(null).ok, false);
    });
  });

  describe('step list location', () => {
    for (const key of ['steps', 'tasks', 'workflow', 'phases']) {
      it(`finds the list under "${key}"`, () => {
        assert.equal(planOf(parsePlan({ [key]: ['x'] })).steps.length, 1);
      });
      it(`finds the list under "plan.${key}"`, () => {
        assert.equal(planOf(parsePlan({ plan: { [key]: ['x', 'y'] } })).steps.length, 2);
      });
    }

    it('takes the first present key in the order steps, tasks, workflow, phases', () => {
      const plan = planOf(parsePlan({ phases: ['p'], workflow: ['w'], tasks: ['t'] }));
      assert.equal(plan.steps[0]!.input, 't');
    });

    it('prefers top-level keys over the same keys under plan', () => {
      assert.equal(planOf(parsePlan({ steps: ['top'], plan: { steps: ['nested'] } })).steps[0]!.input, 'top');
    });

    it('flattens phases with their own tasks, adding the phase dependencies to each child', () => {
      const plan = planOf(
        parsePlan({
          phases: [
            { id: 'P1', tasks: [{ id: 'a' }, { id: 'b' }] },
            { id: 'P2', depends_on: ['a'], steps: [{ id: 'c', depends_on: 'b' }, { id: 'd' }] },
          ],
        }),
      );
      assert.deepEqual(plan.steps.map((step) => [step.id, step.dependsOn]), [['a', []], ['b', []], ['c', ['a', 'b']], ['d', ['a']]]);
    });

    it('turns a dependency on a flattened phase into dependencies on its steps', () => {
      const plan = planOf(parsePlan({ phases: [{ id: 'P1', tasks: [{ id: 'a' }, { id: 'b' }] }, { id: 'P2', depends_on: 'P1', tasks: [{ id: 'c' }] }] }));
      assert.deepEqual(plan.steps.find((step) => step.id === 'c')!.dependsOn, ['a', 'b']);
    });
  });

  describe('steps', () => {
    it('turns plain strings into agent steps with that input', () => {
      const step = planOf(parsePlan({ steps: ['Summarize the README'] })).steps[0]!;
      assert.equal(step.kind, 'agent');
      assert.equal(step.agent, 'default');
      assert.equal(step.input, 'Summarize the README');
    });

    it('takes the id from id > step_id > name, stringified', () => {
      const plan = planOf(parsePlan({ steps: [{ id: 7, step_id: 'x', name: 'y' }, { step_id: 'x', name: 'y' }, { name: 'y' }] }));
      assert.deepEqual(plan.steps.map((step) => step.id), ['7', 'x', 'y']);
    });

    it('numbers missing ids S001, S002, … by position', () => {
      const plan = planOf(parsePlan({ steps: [{ input: 'a' }, 'b', { id: 'c' }, { input: 'd' }] }));
      assert.deepEqual(plan.steps.map((step) => step.id), ['S001', 'S002', 'c', 'S004']);
    });

    it('takes the input from input > query > action > description > title', () => {
      const plan = planOf(
        parsePlan({
          steps: [
            { input: 'i', query: 'q', action: 'a', description: 'd', title: 't' },
            { query: 'q', action: 'a', description: 'd', title: 't' },
            { action: 'a', description: 'd', title: 't' },
            { description: 'd', title: 't' },
            { title: 't' },
          ],
        }),
      );
      assert.deepEqual(plan.steps.map((step) => step.input), ['i', 'q', 'a', 'd', 't']);
    });

    it('takes dependencies from dependsOn > depends_on > requires > after > dependencies', () => {
      const plan = planOf(
        parsePlan({
          steps: [
            { id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }, { id: 'e' },
            { id: 'v1', dependsOn: ['a'], depends_on: ['b'] },
            { id: 'v2', depends_on: ['b'], requires: ['c'] },
            { id: 'v3', requires: ['c'], after: ['d'] },
            { id: 'v4', after: ['d'], dependencies: ['e'] },
            { id: 'v5', dependencies: ['e'] },
          ],
        }),
      );
      assert.deepEqual(plan.steps.slice(5).map((step) => step.dependsOn), [['a'], ['b'], ['c'], ['d'], ['e']]);
    });

    it('turns a scalar dependency into a list and stringifies elements', () => {
      const plan = planOf(parsePlan({ steps: [{ id: 1 }, { id: 'b', depends_on: 1 }, { id: 'c', after: [1, 'b'] }] }));
      assert.deepEqual(plan.steps[1]!.dependsOn, ['1']);
      assert.deepEqual(plan.steps[2]!.dependsOn, ['1', 'b']);
    });

    const kinds: [string, string][] = [
      ['gate', 'synthesis_gate'], ['synthesis', 'synthesis_gate'], ['compress', 'synthesis_gate'], ['summarize', 'synthesis_gate'],
      ['review', 'human_review'], ['approval', 'human_review'], ['question', 'clarification'], ['ask', 'clarification'], ['manual', 'manual'], ['human_task', 'manual'],
    ];
    for (const [type, kind] of kinds) {
      it(`maps type "${type}" to ${kind}`, () => {
        assert.equal(planOf(parsePlan({ steps: [{ id: 'a', type }] })).steps[0]!.kind, kind);
      });
    }

    it('makes a step with a tool a tool step, and others agent steps', () => {
      const plan = planOf(parsePlan({ steps: [{ id: 'a', tool: 'read_file', args: { path: 'x' } }, { id: 'b' }] }));
      assert.equal(plan.steps[0]!.kind, 'tool');
      assert.deepEqual(plan.steps[0]!.args, { path: 'x' });
      assert.equal(plan.steps[1]!.kind, 'agent');
    });

    it('accepts canonical kinds as they are', () => {
      assert.equal(planOf(parsePlan({ steps: [{ id: 'a', kind: 'synthesis_gate' }] })).steps[0]!.kind, 'synthesis_gate');
    });

    it('warns about an unknown type and falls back', () => {
      const result = parsePlan({ steps: [{ id: 'a', type: 'dance' }] });
      assert.equal(planOf(result).steps[0]!.kind, 'agent');
      assert.match(warningsOf(result).join('\n'), /unknown kind "dance"/);
    });

    it('applies the defaults of the plan model (docs/architecture.md §3)', () => {
      const step = planOf(parsePlan({ steps: [{ id: 'a' }] })).steps[0]!;
      assert.deepEqual(
        { onFailure: step.onFailure, maxAttempts: step.maxAttempts, critical: step.critical, onVerificationFailure: step.onVerificationFailure, dependsOn: step.dependsOn, agent: step.agent },
        { onFailure: 'stop', maxAttempts: 1, critical: true, onVerificationFailure: 'stop', dependsOn: [], agent: 'default' },
      );
    });

    it('reads on_failure/onFailure and turns anything else into stop with a warning', () => {
      const result = parsePlan({ steps: [{ id: 'a', on_failure: 'retry' }, { id: 'b', onFailure: 'replan' }, { id: 'c', on_failure: 'panic' }, { id: 'd', onFailure: 'skip' }] });
      assert.deepEqual(planOf(result).steps.map((step) => step.onFailure), ['retry', 'replan', 'stop', 'skip']);
      assert.match(warningsOf(result).join('\n'), /"panic"/);
    });

    it('reads max_retries/retries/maxAttempts as the total attempts', () => {
      const plan = planOf(parsePlan({ steps: [{ id: 'a', max_retries: 3 }, { id: 'b', retries: 2 }, { id: 'c', maxAttempts: 4 }, { id: 'd', retries: 'x' }] }));
      assert.deepEqual(plan.steps.map((step) => step.maxAttempts), [3, 2, 4, 1]);
    });

    it('makes critical false only for false or "false"', () => {
      const plan = planOf(parsePlan({ steps: [{ id: 'a', critical: false }, { id: 'b', critical: 'false' }, { id: 'c', critical: 0 }, { id: 'd', critical: 'no' }, { id: 'e' }] }));
      assert.deepEqual(plan.steps.map((step) => step.critical), [false, false, true, true, true]);
    });

    it('keeps verification, when, timeouts, approval and attachments', () => {
      const step = planOf(
        parsePlan({ steps: [{ id: 'a', verification: 'result.ok', when: 'true', timeout_ms: 500, requires_approval: true, on_verification_failure: 'retry', attachments: [{ kind: 'link', ref: 'https://x.dev' }] }] }),
      ).steps[0]!;
      assert.equal(step.verification, 'result.ok');
      assert.equal(step.when, 'true');
      assert.equal(step.timeoutMs, 500);
      assert.equal(step.requiresApproval, true);
      assert.equal(step.onVerificationFailure, 'retry');
      assert.deepEqual(step.attachments, [{ kind: 'link', ref: 'https://x.dev' }]);
    });

    it('keeps unknown fields out of the model and reports them', () => {
      const result = parsePlan({ steps: [{ id: 'a', mood: 'happy' }], extra: 1 });
      assert.equal('mood' in planOf(result).steps[0]!, false);
      assert.match(warningsOf(result).join('\n'), /"mood"/);
      assert.match(warningsOf(result).join('\n'), /"extra"/);
    });

    it('describes exotic field values in warnings without calling their toString', () => {
      const result = parsePlan({ steps: [{ id: 'a', retries: { toString: null }, on_failure: { valueOf: null } }] });
      assert.deepEqual([planOf(result).steps[0]!.maxAttempts, planOf(result).steps[0]!.onFailure], [1, 'stop']);
      assert.match(warningsOf(result).join('\n'), /attempt count "\{"toString":null\}"/);
    });

    it('drops entries that are neither text nor objects, with a warning', () => {
      const result = parsePlan({ steps: ['a', 3, null] });
      assert.equal(planOf(result).steps.length, 1);
      assert.equal(warningsOf(result).length, 2);
    });
  });

  describe('agents', () => {
    it('reads agents or workers; a string is the prompt', () => {
      assert.deepEqual(planOf(parsePlan({ agents: { w: 'You write.' }, steps: ['x'] })).agents, { w: { prompt: 'You write.', tools: [] } });
      assert.deepEqual(planOf(parsePlan({ workers: { w: 'You write.' }, steps: ['x'] })).agents.w!.prompt, 'You write.');
    });

    it('takes the prompt from prompt > description > role and tools from tools > capabilities', () => {
      const agents = planOf(
        parsePlan({ agents: { a: { prompt: 'p', description: 'd', role: 'r', tools: ['t1'], capabilities: ['c'] }, b: { description: 'd', role: 'r', capabilities: ['c'] }, c: { role: 'r' } }, steps: ['x'] }),
      ).agents;
      assert.deepEqual(agents, { a: { prompt: 'p', tools: ['t1'] }, b: { prompt: 'd', tools: ['c'] }, c: { prompt: 'r', tools: [] } });
    });

    it('assigns the step agent from agent', () => {
      assert.equal(planOf(parsePlan({ steps: [{ id: 'a', agent: 'writer' }] })).steps[0]!.agent, 'writer');
    });
  });

  describe('plan fields', () => {
    it('reads id, version and objective, and fills what is missing', () => {
      const plan = planOf(parsePlan({ id: 'p1', version: 3, goal: 'g', steps: ['x'] }, { createdAt: '2026-01-01T00:00:00.000Z' }));
      assert.deepEqual([plan.id, plan.version, plan.objective, plan.createdAt], ['p1', 3, 'g', '2026-01-01T00:00:00.000Z']);
    });

    it('derives a stable id from the content when none is given', () => {
      const first = planOf(parsePlan({ steps: ['x'] }));
      assert.equal(first.id, planOf(parsePlan({ steps: ['x'] })).id);
      assert.notEqual(first.id, planOf(parsePlan({ steps: ['y'] })).id);
    });
  });

  // A newcomer's trial (2026-12-03): an id with a line break became S001, which another step was written with ("used more
  // than once": the user blamed for a clash the parser made), and the step depending on it named an id no step had.
  it('gives a replaced id one no step is written with, and the dependencies on the step follow it', () => {
    const parsed = parsePlan({
      steps: [
        { id: 'a\nb', tool: 'read_file', args: { path: 'x' } },
        { id: 'S001', input: 'written so' },
        { id: 'uses', input: 'go', dependsOn: ['a\nb', 'S001'] },
        { input: 'no id' },
        { id: '__proto__', input: 'reserved', dependsOn: ['a\nb'] },
        { id: 'S004', input: 'written so too' },
      ],
    });
    const plan = planOf(parsed);
    assert.deepEqual(plan.steps.map((step) => [step.id, step.dependsOn]), [
      ['S001-2', []],
      ['S001', []],
      ['uses', ['S001-2', 'S001']],
      ['S004-2', []],
      ['S005', ['S001-2']],
      ['S004', []],
    ]);
    assert.ok(warningsOf(parsed).includes('Step id "a\\nb" holds a line break, a control or an invisible character; it became "S001-2".'), warningsOf(parsed).join('\n'));
  });

  describe('what it refuses or drops, and says', () => {
    it('refuses a plan the canonical schema rejects instead of returning no plan', () => {
      assert.deepEqual(parsePlan({ steps: ['x'] }, { id: '' }), { ok: false, errors: ['id: Too small: expected string to have >=1 characters'] });
    });

    it('explains text that is not JSON, JSON that is not an object, and an exception while reading', () => {
      assert.deepEqual(parsePlan('"just a string"'), { ok: false, errors: ['The plan is not a JSON object or array. Send a JSON object with a "steps" array.'] });
      assert.deepEqual(parsePlan('null'), { ok: false, errors: ['The plan is not a JSON object or array. Send a JSON object with a "steps" array.'] });
      const result = parsePlan('');
      assert.ok(!result.ok);
      assert.match(result.errors[0]!, / Send a JSON object with a "steps" array\.$/);
      const hostile = { get steps(): never { throw new Error('getter exploded'); } };
      assert.deepEqual(parsePlan(hostile), { ok: false, errors: ['The plan could not be read: getter exploded'] });
      assert.deepEqual(parsePlan({ steps: 'not a list' }), { ok: false, errors: ['No step list found. Give the steps as an array under "steps" (or "tasks", "workflow", "phases", or the same keys under "plan").'] });
      assert.equal(parsePlan({ plan: 'x' }).ok, false);
    });

    it('reports each unknown plan field by name, and accepts every documented one', () => {
      const documented = {
        id: 'p', version: 2, objective: 'o', goal: 'g', task: 't', createdAt: 'c', created_at: 'c', agents: {}, workers: {},
        title: 't', description: 'd', plan: {}, tasks: [], workflow: [], phases: [],
      };
      assert.deepEqual(warningsOf(parsePlan({ ...documented, steps: ['x'] })), []);
      assert.deepEqual(warningsOf(parsePlan({ steps: ['x'], mood: 1, Steps: 2 })), ['Ignored unknown plan field "mood".', 'Ignored unknown plan field "Steps".']);
      // Nothing uses a plan's estimated duration: it is read no more, and said so.
      const old = parsePlan({ steps: ['x'], estimatedDurationSec: 60 });
      assert.deepEqual(warningsOf(old), ['Ignored unknown plan field "estimatedDurationSec".']);
      assert.deepEqual(Object.keys(planOf(old)).sort(), ['agents', 'createdAt', 'id', 'objective', 'steps', 'version']);
      // The second newcomer's find (2026-12-01): the file `plan --json` saves ran with three warnings about its own output.
      const saved = { plan: { objective: 'o', steps: ['x'] }, critique: {}, warnings: [], started: false, estimate: {} };
      assert.deepEqual(warningsOf(parsePlan(saved)), []);
      assert.deepEqual(warningsOf(parsePlan({ steps: ['x'], critique: {} })), ['Ignored unknown plan field "critique".'], 'only beside a plan under "plan"');
    });

    it('reads the plan\'s context tags (contextTags or context_tags, a list or comma-separated text) and each step\'s skills', () => {
      const plan = planOf(parsePlan({ contextTags: ['ui', ' ui ', 'docs', ''], steps: [{ id: 'a', skills: 'release, tests,release' }, { id: 'b', skills: [] }, { id: 'c' }] }));
      assert.deepEqual(plan.contextTags, ['ui', 'docs']);
      assert.deepEqual(plan.steps.map((step) => step.skills), [['release', 'tests'], undefined, undefined]);
      assert.deepEqual(planOf(parsePlan({ plan: { context_tags: 'a,b', steps: ['x'] } })).contextTags, ['a', 'b']);
      assert.equal('contextTags' in planOf(parsePlan({ contextTags: [], steps: ['x'] })), false);
    });

    it('warns about skills and context tags it cannot use (not names, too long, too many, holding control characters), keeping the rest', () => {
      const result = parsePlan({ contextTags: 7, steps: [{ id: 'a', skills: ['ok', 3, 'x'.repeat(65)] }, { id: 'b', skills: { a: 1 } }, { id: 'c', skills: Array.from({ length: 40 }, (_, index) => `s${index}`) }] });
      const plan = planOf(result);
      assert.equal(plan.contextTags, undefined);
      assert.deepEqual(plan.steps[0]!.skills, ['ok']);
      assert.equal(plan.steps[1]!.skills, undefined);
      assert.equal(plan.steps[2]!.skills?.length, 32);
      const hostile = parsePlan({ contextTags: ['docs', 'ui\u202etxt.exe'], steps: [{ id: 'a', skills: ['ok', 'bad\u001b[31m'] }] });
      assert.deepEqual([planOf(hostile).contextTags, planOf(hostile).steps[0]!.skills], [['docs'], ['ok']]);
      assert.deepEqual(warningsOf(hostile), ['Step "a": "skills": ignored a name holding control characters.', 'The plan\'s "contextTags": ignored a name holding control characters.']);
      assert.deepEqual(warningsOf(result), [
        'Step "a": "skills": ignored a value that is not a name (3).',
        'Step "a": "skills": ignored a name longer than 64 characters.',
        'Step "b": "skills" ignored: give a list of names.',
        'Step "c": "skills": only the first 32 names are kept.',
        'The plan\'s "contextTags" ignored: give a list of names.',
      ]);
    });

    it('drops a phase without tasks with a warning that names it', () => {
      const result = parsePlan({ phases: [{ id: 'P1', tasks: [] }, { tasks: [] }, { id: 'P3', tasks: ['x'] }] });
      assert.deepEqual(planOf(result).steps.map((step) => step.input), ['x']);
      assert.deepEqual(warningsOf(result), ['Phase "P1" has no tasks; it was dropped.', 'Phase "(unnamed)" has no tasks; it was dropped.']);
    });

    it('names a phase by id, phase_id or name, takes its dependencies from any alias, and keeps a step named like its phase', () => {
      const plan = planOf(parsePlan({
        phases: [
          { phase_id: 'A', tasks: [{ id: 'a1' }] },
          { name: 'B', requires: 'A', tasks: [{ id: 'b1' }, { id: 'b2', depends_on: 'b1' }] },
          { id: 'C', after: ['B'], steps: [{ id: 'C' }] },
          { id: 'D', dependencies: 'C', tasks: [{ id: 'd1' }] },
        ],
      }));
      assert.deepEqual(plan.steps.map((step) => [step.id, step.dependsOn]), [['a1', []], ['b1', ['a1']], ['b2', ['a1', 'b1']], ['C', ['b1', 'b2']], ['d1', ['C']]]);
    });

    it('reads the plan fields from the container under "plan" or the top level, with their aliases', () => {
      const nested = planOf(parsePlan({ plan: { id: 'inner', goal: 'inner goal', workers: { w: 'You work.' }, steps: ['x'] }, version: 0, created_at: '2026-02-02' }));
      assert.deepEqual(
        [nested.id, nested.objective, nested.agents, nested.version, nested.createdAt],
        ['inner', 'inner goal', { w: { prompt: 'You work.', tools: [] } }, 1, '2026-02-02'],
      );
      const top = planOf(parsePlan({ task: 'top task', steps: ['x'], version: 2.5 }, { id: 'given', createdAt: '2026-03-03' }));
      assert.deepEqual([top.id, top.objective, top.version, top.createdAt], ['given', 'top task', 1, '2026-03-03']);
      assert.equal(planOf(parsePlan({ steps: ['x'] })).createdAt, '1970-01-01T00:00:00.000Z');
      assert.equal(planOf(parsePlan({ title: 'T', description: 'D', steps: ['x'] })).objective, 'T');
      assert.equal(planOf(parsePlan({ description: 'D', steps: ['x'] })).objective, 'D');
    });

    it('derives the id from the text it was given, so the same text gives the same id', () => {
      const text = '{"steps":["x"]}';
      assert.equal(planOf(parsePlan(text)).id, planOf(parsePlan(text)).id);
      assert.notEqual(planOf(parsePlan(text)).id, planOf(parsePlan('{"steps": ["x"]}')).id);
      assert.match(planOf(parsePlan(text)).id, /^plan-[0-9a-f]+$/);
    });
  });

  /** A well-formed outcome: a schema-valid plan, or explained errors that are not an internal exception. */
  function assertWellFormed(result: ParsePlanResult): void {
    if (result.ok) {
      assert.ok(planSchema.safeParse(result.plan).success, 'the plan must satisfy the canonical schema');
    } else {
      assert.ok(result.errors.length > 0);
      assert.ok(!result.errors.some((error) => error.startsWith('The plan could not be read')), `internal exception: ${result.errors.join('; ')}`);
    }
  }

  describe('properties', () => {
    it('never throws and yields a schema-valid plan or explained errors on arbitrary JSON values', () => {
      fc.assert(fc.property(fc.jsonValue(), (value) => {
        assertWellFormed(parsePlan(value));
      }), { numRuns: 500 });
    });

    it('never throws on arbitrary strings', () => {
      fc.assert(fc.property(fc.string({ maxLength: 200 }), (text) => {
        assertWellFormed(parsePlan(text));
      }), { numRuns: 500 });
    });

    it('never throws on arbitrary objects with a step list', () => {
      const step = fc.oneof(fc.string(), fc.dictionary(fc.constantFrom('id', 'name', 'type', 'tool', 'depends_on', 'critical', 'retries', 'on_failure', 'args', 'tasks', 'input'), fc.jsonValue()));
      fc.assert(fc.property(fc.array(step, { maxLength: 8 }), fc.constantFrom('steps', 'tasks', 'workflow', 'phases'), (steps, key) => {
        assertWellFormed(parsePlan({ [key]: steps }));
      }), { numRuns: 1000 });
    });
  });
});

describe('parsePlan: basis', () => {
  const steps = [{ id: 'S1', title: 'a', kind: 'agent', input: 'x', dependsOn: [] }];
  it('keeps what the plan is based on, and drops a basis out of bounds with a warning instead of the plan', () => {
    const basis = { files: ['src/a.ts'], searches: ['parse('], answers: [{ question: 'Which?', answer: 'MIT' }] };
    assert.deepEqual(planOf(parsePlan({ objective: 'o', steps, basis })).basis, basis);
    const bad = parsePlan({ objective: 'o', steps, basis: { files: ['x'.repeat(600)], searches: [], answers: [] } });
    assert.equal(planOf(bad).basis, undefined);
    assert.ok(bad.ok && bad.warnings.some((warning) => warning.includes('Ignored "basis"')));
  });
});
