import assert from 'node:assert/strict';
import { normalizeStep } from '../../../../src/core/plan/normalizeStep';
import type { RawStepEntry } from '../../../../src/core/plan/normalizeStep';
import type { Step } from '../../../../src/core/plan/planSchema';
import { stepKinds } from '../../../../src/shared/vocabulary';

/** The step and the warnings normalising `value` at `index` gives. */
function normalize(value: unknown, index = 0, inherited: Omit<RawStepEntry, 'value'> = {}): { step: Step | undefined; warnings: string[] } {
  const warnings: string[] = [];
  return { step: normalizeStep({ value, ...inherited }, index, warnings), warnings };
}

const defaults = { dependsOn: [], onFailure: 'stop', maxAttempts: 1, critical: true, onVerificationFailure: 'stop' } as const;

describe('normalizeStep', () => {
  it('reads a tool step written with the alternative field names, keeping its tool and every setting', () => {
    const { step, warnings } = normalize({
      step_id: 'read', name: 'Read the config', action: 'Read config.json', type: ' Tool ', tool: 'read_file', arguments: { path: 'config.json' },
      worker: 'reader', on_failure: 'retry', max_attempts: '3', critical: 'false', verify: 'result.ok', on_verification_failure: 'skip',
      condition: 'results.a', requires_approval: false, timeout_ms: 1500, attachments: [{ kind: 'file', ref: 'config.json' }], depends_on: 'a',
    }, 4, { inheritedDeps: ['phase-dep'] });
    assert.deepEqual(warnings, []);
    assert.deepEqual(step, {
      id: 'read', title: 'Read the config', kind: 'tool', tool: 'read_file', args: { path: 'config.json' }, agent: 'reader', input: 'Read config.json',
      dependsOn: ['phase-dep', 'a'], onFailure: 'retry', maxAttempts: 3, critical: false, verification: 'result.ok', onVerificationFailure: 'skip',
      when: 'results.a', requiresApproval: false, timeoutMs: 1500, attachments: [{ kind: 'file', ref: 'config.json' }],
    });
  });

  it('reads the canonical field names the same way, and skips a step only when told to', () => {
    const { step, warnings } = normalize({
      id: 'w', title: 'Write', input: 'x', kind: 'tool', tool: 'write_file', args: { path: 'a', content: 'b' }, agent: 'writer', onFailure: 'skip',
      maxAttempts: 2, critical: true, verification: 'v', onVerificationFailure: 'replan', when: 'w', requiresApproval: true, skipped: true, timeoutMs: 10,
    });
    assert.deepEqual(warnings, []);
    assert.deepEqual(step, {
      id: 'w', title: 'Write', kind: 'tool', tool: 'write_file', args: { path: 'a', content: 'b' }, agent: 'writer', input: 'x', dependsOn: [],
      onFailure: 'skip', maxAttempts: 2, critical: true, verification: 'v', onVerificationFailure: 'replan', when: 'w', requiresApproval: true, skipped: true, timeoutMs: 10,
    });
    for (const skipped of [false, 'true', 1]) assert.equal(normalize({ id: 'a', skipped }).step?.skipped, undefined, String(skipped));
  });

  it('gives a retry step at least 2 attempts, as the engine runs it, and leaves other policies\' attempts alone', () => {
    assert.equal(normalize({ id: 'a', input: 'x', onFailure: 'retry' }).step?.maxAttempts, 2);
    assert.equal(normalize({ id: 'a', input: 'x', onFailure: 'retry', maxAttempts: 4 }).step?.maxAttempts, 4);
    assert.equal(normalize({ id: 'a', input: 'x', onFailure: 'stop', maxAttempts: 3 }).step?.maxAttempts, 3);
    assert.deepEqual(normalize({ id: 'a', input: 'x', onFailure: 'retry' }).warnings, []);
  });

  it('takes args from args > arguments > params > parameters, objects only', () => {
    const argsOf = (raw: object): unknown => normalize({ id: 'a', tool: 't', ...raw }).step?.args;
    assert.deepEqual(argsOf({ args: { a: 1 }, arguments: { b: 1 } }), { a: 1 });
    assert.deepEqual(argsOf({ args: 'no', arguments: { b: 1 } }), { b: 1 });
    assert.deepEqual(argsOf({ params: { c: 1 }, parameters: { d: 1 } }), { c: 1 });
    assert.deepEqual(argsOf({ parameters: { d: 1 } }), { d: 1 });
    assert.equal(argsOf({ args: ['list'] }), undefined);
  });

  it('accepts every documented field name without a warning', () => {
    const fields = [
      'id', 'step_id', 'name', 'title', 'input', 'query', 'action', 'description', 'dependsOn', 'depends_on', 'requires', 'after', 'dependencies',
      'type', 'kind', 'tool', 'args', 'arguments', 'params', 'parameters', 'agent', 'worker', 'on_failure', 'onFailure', 'max_retries', 'retries',
      'maxAttempts', 'max_attempts', 'critical', 'verification', 'verify', 'on_verification_failure', 'onVerificationFailure', 'when', 'condition',
      'requiresApproval', 'requires_approval', 'skipped', 'timeoutMs', 'timeout_ms', 'attachments', 'outputSchema', 'output_schema', 'review',
    ];
    for (const field of fields) assert.deepEqual(normalize({ [field]: undefined }).warnings, [], field);
    assert.deepEqual(normalize({ id: 'a', mood: 'happy', Tool: 'x' }).warnings, [
      'Step "a": ignored unknown field "mood".',
      'Step "a": ignored unknown field "Tool": did you mean "tool"?',
    ]);
    // A newcomer's slips, each named with the field meant; a word far from every field is named alone.
    const slips = normalize({ id: 'a', dependson: [], onfailure: 'skip', maxAttempt: 2, verifcation: 'true', instructions: 'x' }).warnings;
    assert.deepEqual(slips, [
      'Step "a": ignored unknown field "dependson": did you mean "dependsOn"?',
      'Step "a": ignored unknown field "onfailure": did you mean "onFailure"?',
      'Step "a": ignored unknown field "maxAttempt": did you mean "maxAttempts"?',
      'Step "a": ignored unknown field "verifcation": did you mean "verification"?',
      'Step "a": ignored unknown field "instructions".',
    ]);
  });

  it('turns text into an agent step titled by its first line, and drops blank or odd entries with a warning', () => {
    assert.deepEqual(normalize('  Summarise the README\nthen the docs', 1, { inheritedDeps: ['p'] }).step, {
      ...defaults, id: 'S002', title: 'Summarise the README', kind: 'agent', agent: 'default', input: '  Summarise the README\nthen the docs', dependsOn: ['p'],
    });
    assert.deepEqual(normalize('   ', 2), { step: undefined, warnings: ['Step 3 is blank; it was dropped.'] });
    assert.deepEqual(normalize(null, 0), { step: undefined, warnings: ['Step 1 is neither text nor an object (null); it was dropped.'] });
    assert.deepEqual(normalize([1, 2], 9), { step: undefined, warnings: ['Step 10 is neither text nor an object ([1,2]); it was dropped.'] });
  });

  it('shortens long titles to 120 characters, and titles a step by its name, its input or its id', () => {
    const long = 'x'.repeat(130);
    assert.equal(normalize(long).step?.title, `${'x'.repeat(119)}…`);
    assert.equal(normalize('y'.repeat(120)).step?.title, 'y'.repeat(120));
    assert.equal(normalize({ id: 'a', name: 'Fetch data', input: 'get it' }).step?.title, 'Fetch data');
    assert.equal(normalize({ name: 'fetch', input: 'Get the data\nand more' }).step?.title, 'Get the data');
    assert.equal(normalize({ id: 'only-id' }).step?.title, 'only-id');
    assert.equal(normalize({ id: 'a', title: '  Spaced  ' }).step?.title, 'Spaced');
  });

  it('replaces an over-long id by the position id, saying so', () => {
    const id = 'i'.repeat(200);
    const { step, warnings } = normalize({ id }, 6);
    assert.equal(step?.id, 'S007');
    assert.deepEqual(warnings, [`Step id "${'i'.repeat(20)}…" is longer than 64 characters; it became "S007".`]);
  });

  it('renames a step called "__proto__", which results and step states could not hold, and says so', () => {
    // Found by a hostile plan: the step ran, but its result and status vanished from the run.
    const { step, warnings } = normalize({ id: '__proto__', tool: 'read_file', args: { path: 'a.txt' } }, 2);
    assert.equal(step?.id, 'S003');
    assert.deepEqual(warnings, ['Step id "__proto__" is reserved; it became "S003".']);
    assert.equal(normalize({ id: 'constructor', tool: 'read_file' }).step?.id, 'constructor');
  });

  // An outside attack (2026-12-03): a model's step id "a\n[2/2] ✔ deploy done" printed a forged line of the CLI's progress.
  it('attack: renames an id holding a line break, a control or an invisible character, saying so in escapes', () => {
    for (const id of ['a\n[2/2] ✔ deploy done', 'a\rb', 'tab\t', 'a\u202eb', 'a\u200bb', `a${String.fromCodePoint(0xe0049)}`, 'a\u2028b', 'a\u00adb']) {
      const { step, warnings } = normalize({ id, tool: 'read_file', args: { path: 'a.txt' } }, 4);
      assert.equal(step?.id, 'S005', JSON.stringify(id));
      assert.match(warnings[0] ?? '', /^Step id "[^\n\r\u202e\u200b\u2028\u00ad]*" holds a line break, a control or an invisible character; it became "S005"\.$/u);
    }
    for (const id of ['build step', 'café', 'étape-1', '步骤', 'a.b_c@d']) assert.equal(normalize({ id, tool: 'read_file' }).step?.id, id);
  });

  it('shows the text-direction controls of a title as escapes, so a title cannot reverse what the editor shows after it', () => {
    // Found in the editor: "\u202e" in a title reversed the diff tab's file name and the run table around it.
    const { step } = normalize({ id: 'a', title: 'Write notes \u202etxt.exe \u2066x\u2069 \u200f', tool: 'read_file' });
    assert.equal(step?.title, 'Write notes \\u202etxt.exe \\u2066x\\u2069 \\u200f');
    assert.equal(normalize({ id: 'b', title: 'שלום עולם', tool: 'read_file' }).step?.title, 'שלום עולם');
  });

  it('decides the kind from type or kind, trimmed and in any case, and from the tool', () => {
    const kindOf = (raw: object): [Step['kind'] | undefined, string | undefined, string[]] => {
      const { step, warnings } = normalize({ id: 'a', ...raw });
      return [step?.kind, step?.agent, warnings];
    };
    assert.deepEqual(kindOf({ kind: ' GATE ' }), ['synthesis_gate', undefined, []]);
    assert.deepEqual(kindOf({ type: 'review', agent: 'critic' }), ['human_review', 'critic', []]);
    assert.deepEqual(kindOf({ type: 'tool' }), ['agent', 'default', ['Step "a" says it is a tool step but names no tool; it became an agent step.']]);
    assert.deepEqual(kindOf({ type: 'agent', tool: 'read_file' }), ['agent', 'default', []]);
    assert.deepEqual(kindOf({ tool: 'read_file' }), ['tool', undefined, []]);
    // The warning names the types there are (issue 29: it named only the one it did not know).
    assert.deepEqual(kindOf({ type: 'dance', tool: 'read_file' }), [
      'tool',
      undefined,
      ['Step "a": unknown kind "dance" (the kinds are tool, agent, synthesis_gate, human_review, clarification, manual); treated as a tool step.'],
    ]);
    // Taken as meant: as an agent step, with a model, it "did" the user's own task (a newcomer in the editor).
    assert.deepEqual(kindOf({ kind: 'manuel' }), [
      'manual',
      undefined,
      ['Step "a": unknown kind "manuel" (did you mean "manual"? the kinds are tool, agent, synthesis_gate, human_review, clarification, manual); treated as a manual step.'],
    ]);
    assert.deepEqual(kindOf({ type: 'dance' }), [
      'agent',
      'default',
      ['Step "a": unknown kind "dance" (the kinds are tool, agent, synthesis_gate, human_review, clarification, manual); treated as an agent step.'],
    ]);
    assert.deepEqual(kindOf({ kind: 'clarification' }), ['clarification', undefined, []]);
  });

  it('reads the generic type a model writes ("task", "step") as no type: the step\'s fields decide, without a warning (issue 29, seed 001)', () => {
    for (const type of ['task', 'Task', 'step', 'action']) {
      assert.deepEqual([normalize({ id: 'a', type, input: 'Summarise the notes' }).step?.kind, normalize({ id: 'a', type }).warnings], ['agent', []], type);
      assert.deepEqual(normalize({ id: 'a', type, tool: 'read_file', args: { path: 'a' } }).step?.kind, 'tool', type);
    }
  });

  it('reads every step kind by its own name, and a type named like an object property as unknown', () => {
    for (const kind of stepKinds) {
      const { step, warnings } = normalize({ id: 'a', kind, tool: kind === 'tool' ? 'read_file' : undefined, input: 'do it' });
      assert.deepEqual([step?.kind, warnings], [kind, []]);
    }
    for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const { step, warnings } = normalize({ id: 'a', type });
      assert.deepEqual(
        [step?.kind, warnings],
        [
          'agent',
          [
            `Step "a": unknown kind "${type.toLowerCase()}" (the kinds are tool, agent, synthesis_gate, human_review, clarification, manual); treated as an agent step.`,
          ],
        ],
        type,
      );
    }
  });

  it('reads failure policies and attempt counts leniently, warning about what it cannot use', () => {
    const { step, warnings } = normalize({ id: 'a', onFailure: ' RETRY ', onVerificationFailure: 'panic', retries: 50 });
    assert.deepEqual([step?.onFailure, step?.onVerificationFailure, step?.maxAttempts], ['retry', 'stop', 20]);
    assert.deepEqual(warnings, ['Step "a": onVerificationFailure "panic" is not one of stop, skip, retry, replan; using "stop".']);
    for (const [retries, expected] of [
      [null, 1],
      ['2', 2],
      [1, 1],
    ] as const) {
      assert.equal(normalize({ id: 'a', retries }).step?.maxAttempts, expected, String(retries));
    }
    for (const retries of [0, 2.5, '0', 'many']) {
      assert.deepEqual(
        normalize({ id: 'a', retries }).warnings,
        [`Step "a": attempt count "${String(retries)}" is not a positive whole number; using 1.`],
        String(retries),
      );
    }
    assert.deepEqual(normalize({ id: 'a', on_failure: 7 }).warnings, ['Step "a": onFailure "7" is not one of stop, skip, retry, replan; using "stop".']);
    assert.equal(normalize({ id: 'a', onFailure: null }).step?.onFailure, 'stop');
  });

  it('keeps only whole positive timeouts and valid attachments', () => {
    for (const timeoutMs of [0, -5, 1.5, '100']) assert.equal(normalize({ id: 'a', timeoutMs }).step?.timeoutMs, undefined, String(timeoutMs));
    assert.equal(normalize({ id: 'a', timeoutMs: 1 }).step?.timeoutMs, 1);
    const { step, warnings } = normalize({ id: 'a', attachments: [{ kind: 'link', ref: 'https://x.dev' }, { kind: 'sound', ref: 'x' }] });
    assert.deepEqual(step?.attachments, [{ kind: 'link', ref: 'https://x.dev' }]);
    assert.deepEqual(warnings, ['Step "a": ignored an attachment that is not {kind: link|image|file, ref}.']);
    assert.equal('attachments' in (normalize({ id: 'a', attachments: [] }).step ?? {}), false);
    assert.equal('attachments' in (normalize({ id: 'a', attachments: 'x' }).step ?? {}), false);
  });

  it('reads an output schema from outputSchema or output_schema, as an object or JSON text, warning about anything else', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    assert.deepEqual(normalize({ id: 'a', outputSchema: schema }).step?.outputSchema, schema);
    assert.deepEqual(normalize({ id: 'a', output_schema: schema }).step?.outputSchema, schema);
    assert.deepEqual(normalize({ id: 'a', output_schema: JSON.stringify(schema) }).step?.outputSchema, schema);
    assert.deepEqual(normalize({ id: 'a', outputSchema: schema, output_schema: { type: 'string' } }).step?.outputSchema, schema, 'the canonical name wins');
    for (const odd of ['not json', ['type'], 42, '[1]']) {
      const { step, warnings } = normalize({ id: 'a', outputSchema: odd });
      assert.equal(step?.outputSchema, undefined, String(odd));
      assert.equal(warnings.length, 1, String(odd));
      assert.match(warnings[0] ?? '', /^Step "a": ignored an output schema that is not a JSON Schema object \(/);
    }
    assert.deepEqual(normalize({ id: 'a', output_schema: null }).warnings, []);
  });

  it('reads review as a yes or no, and leaves it unset otherwise', () => {
    assert.equal(normalize({ id: 'a', review: true }).step?.review, true);
    assert.equal(normalize({ id: 'a', review: 'true' }).step?.review, true);
    assert.equal(normalize({ id: 'a', review: false }).step?.review, false);
    assert.equal(normalize({ id: 'a', review: 'false' }).step?.review, false);
    for (const other of ['yes', 1, null]) assert.equal(Object.hasOwn(normalize({ id: 'a', review: other }).step ?? {}, 'review'), false, String(other));
  });

  it('merges inherited and own dependencies without repeats', () => {
    assert.deepEqual(normalize({ id: 'a', requires: ['x', 'y'] }, 0, { inheritedDeps: ['x'] }).step?.dependsOn, ['x', 'y']);
  });
});

describe('normalizeStep: basedOn', () => {
  it('keeps workspace-relative paths the step rests on, drops one that leaves the workspace, and bounds the list', () => {
    const { step, warnings } = normalize({ id: 'S1', kind: 'agent', input: 'x', based_on: ['./src/a.ts', '../secret', '/etc/passwd', 'src/a.ts'] });
    assert.deepEqual(step?.basedOn, ['src/a.ts']);
    assert.equal(warnings.filter((warning) => warning.includes('"basedOn" ignored')).length, 2, warnings.join('\n'));
    const many = normalize({ id: 'S2', kind: 'agent', input: 'x', basedOn: Array.from({ length: 30 }, (_, index) => `f${index}.ts`) });
    assert.equal(many.step?.basedOn?.length, 20);
    assert.ok(many.warnings.some((warning) => warning.includes('only the first 20 entries of "basedOn"')));
    assert.equal(normalize({ id: 'S3', kind: 'agent', input: 'x', basedOn: [] }).step?.basedOn, undefined);
  });
});
