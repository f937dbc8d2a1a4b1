import assert from 'node:assert/strict';
import fc from 'fast-check';
import { z } from 'zod';
import type { Tool, ToolRegistry } from '../../../../src/core/tools/tool';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import { dagPlanArbitrary, makePlan, makeStep } from '../../../support/randomPlans';

const readFile: Tool = { name: 'read_file', description: 'reads', effects: 'read', inputSchema: z.object({ path: z.string(), maxBytes: z.number().optional() }), run: async () => '' };
const registry: ToolRegistry = { names: () => ['read_file'], get: (name) => (name === 'read_file' ? readFile : undefined) };

const codes = (plan: Parameters<typeof validatePlan>[0], opts?: Parameters<typeof validatePlan>[1]): string[] => validatePlan(plan, opts).map((diagnostic) => diagnostic.code);

describe('validatePlan', () => {
  it('accepts a valid plan with no diagnostics', () => {
    assert.deepEqual(validatePlan(makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] })])), []);
  });

  it('reports an output schema on a step kind that cannot have one, and one that is not a usable JSON Schema', () => {
    const schema = { type: 'object' };
    assert.deepEqual(validatePlan(makePlan([makeStep('a', { outputSchema: schema }), makeStep('g', { kind: 'synthesis_gate', outputSchema: schema })])), []);
    for (const kind of ['tool', 'human_review', 'clarification', 'manual'] as const) {
      const diagnostics = validatePlan(makePlan([makeStep('t', { kind, tool: 'read_file', args: { path: 'a' }, outputSchema: schema })]));
      assert.deepEqual(diagnostics, [{
        code: 'invalid_output_schema',
        severity: 'error',
        stepId: 't',
        message: 'Step "t" has an output schema, but only agent and synthesis-gate steps produce their result to one; remove it, or make the step an agent step.',
      }], kind);
    }
    assert.deepEqual(validatePlan(makePlan([makeStep('a', { outputSchema: { type: 'wat' } })])).map((diagnostic) => diagnostic.message), [
      'Step "a": its output schema is not a usable JSON Schema: the schema at /type must be equal to one of the allowed values; the schema at /type must be array. Correct it, or remove it.',
    ]);
    assert.match(validatePlan(makePlan([makeStep('a', { outputSchema: { $ref: '#' } })]))[0]?.message ?? '', /leads back to itself/);
  });

  it('reports a review asked of a step a person does', () => {
    assert.deepEqual(validatePlan(makePlan([makeStep('a', { review: true }), makeStep('t', { kind: 'tool', tool: 'read_file', review: true })])), []);
    assert.deepEqual(validatePlan(makePlan([makeStep('m', { kind: 'manual', review: true }), makeStep('n', { kind: 'manual', review: false })])), [{
      code: 'invalid_step',
      severity: 'error',
      stepId: 'm',
      message: 'Step "m" asks for a model\'s review, but a person does this step; remove "review" from it.',
    }]);
  });

  it('reports empty_plan', () => {
    assert.deepEqual(codes(makePlan([])), ['empty_plan']);
  });

  it('reports duplicate_id', () => {
    const diagnostics = validatePlan(makePlan([makeStep('a'), makeStep('a')]));
    assert.deepEqual(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.stepId]), [['duplicate_id', 'a']]);
  });

  it('reports missing_dependency naming both steps', () => {
    const [diagnostic] = validatePlan(makePlan([makeStep('a', { dependsOn: ['ghost'] })]));
    assert.equal(diagnostic?.code, 'missing_dependency');
    assert.match(diagnostic.message, /"a".*"ghost"/);
  });

  it('reports self_dependency and not a cycle', () => {
    assert.deepEqual(codes(makePlan([makeStep('a', { dependsOn: ['a'] })])), ['self_dependency']);
  });

  it('reports a cycle naming its steps in order', () => {
    const plan = makePlan([makeStep('a', { dependsOn: ['c'] }), makeStep('b', { dependsOn: ['a'] }), makeStep('c', { dependsOn: ['b'] }), makeStep('d')]);
    const diagnostics = validatePlan(plan);
    assert.deepEqual(diagnostics.map((diagnostic) => diagnostic.code), ['cycle']);
    assert.match(diagnostics[0]!.message, /a → c → b → a/);
  });

  it('reports each independent cycle', () => {
    const plan = makePlan([makeStep('a', { dependsOn: ['b'] }), makeStep('b', { dependsOn: ['a'] }), makeStep('x', { dependsOn: ['y'] }), makeStep('y', { dependsOn: ['x'] })]);
    assert.deepEqual(codes(plan), ['cycle', 'cycle']);
  });

  it('reports unknown_tool against a list of names', () => {
    const diagnostics = validatePlan(makePlan([makeStep('a', { kind: 'tool', tool: 'launch_rocket' })]), { tools: ['read_file'] });
    assert.deepEqual(diagnostics.map((diagnostic) => diagnostic.code), ['unknown_tool']);
    assert.match(diagnostics[0]!.message, /launch_rocket.*read_file/);
  });

  it('does not check tools when none are given', () => {
    assert.deepEqual(codes(makePlan([makeStep('a', { kind: 'tool', tool: 'launch_rocket' })])), []);
  });

  // A multi-root trial typed "contents:" for write_file in the panel and read "content: Invalid input: expected string,
  // received undefined; Unrecognized key: \"contents\"".
  it('reports invalid_args in the words of the person who typed them: what is missing, what each value should be', () => {
    const diagnostics = validatePlan(makePlan([makeStep('a', { kind: 'tool', tool: 'read_file', args: { path: 3 } })]), { tools: registry });
    assert.deepEqual(diagnostics.map((diagnostic) => diagnostic.code), ['invalid_args']);
    assert.match(diagnostics[0]!.message, /are invalid: path should be a text, not a number\./);
    const writeFile: Tool = { name: 'write_file', description: 'writes', effects: 'write', inputSchema: z.strictObject({ path: z.string(), content: z.string() }), run: async () => '' };
    const writes: ToolRegistry = { names: () => ['write_file'], get: (name) => (name === 'write_file' ? writeFile : undefined) };
    const [misspelt] = validatePlan(makePlan([makeStep('a', { kind: 'tool', tool: 'write_file', args: { path: 'docs/api.md', contents: '# API' } })]), { tools: writes });
    assert.equal(
      misspelt?.message,
      'Step "a": arguments for "write_file" are invalid: content is missing; "contents" is not an argument it takes (did you mean "content"?). "write_file" takes: path (required), content (required).',
    );
  });

  it('does not hold template arguments against the schema', () => {
    const plan = makePlan([makeStep('a'), makeStep('b', { kind: 'tool', tool: 'read_file', dependsOn: ['a'], args: { path: '{{results.a.path}}', maxBytes: '$a' } })]);
    assert.deepEqual(codes(plan, { tools: registry }), []);
  });

  it('reports a tool step that names no tool', () => {
    assert.deepEqual(codes(makePlan([makeStep('a', { kind: 'tool' })])), ['invalid_step']);
  });

  it('accepts a manual step with instructions and reports one that says nothing to do', () => {
    assert.deepEqual(codes(makePlan([makeStep('a', { kind: 'manual', agent: undefined, input: 'Update README.md' })])), []);
    assert.deepEqual(codes(makePlan([makeStep('a', { kind: 'manual', agent: undefined, title: ' ', input: '' })])), ['invalid_step']);
  });

  it('reports missing_agent, but not for default and direct', () => {
    const plan = makePlan([makeStep('a', { agent: 'writer' }), makeStep('b', { agent: 'default' }), makeStep('c', { agent: 'direct' }), makeStep('d', { agent: 'known' })], { agents: { known: { prompt: 'p', tools: [] } } });
    assert.deepEqual(validatePlan(plan).map((diagnostic) => [diagnostic.code, diagnostic.stepId]), [['missing_agent', 'a']]);
  });

  it('warns about agent tools that are not available', () => {
    const plan = makePlan([makeStep('a', { agent: 'w' })], { agents: { w: { prompt: 'p', tools: ['read_file', 'fly'] } } });
    const diagnostics = validatePlan(plan, { tools: ['read_file'] });
    assert.deepEqual(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity]), [['unknown_tool', 'warning']]);
  });

  it('reports invalid_predicate for verification and when', () => {
    const plan = makePlan([makeStep('a', { verification: 'result ===' }), makeStep('b', { when: 'depends.a.ok && (' }), makeStep('c', { verification: 'result.length > 0 && result.includes("ok")' })]);
    assert.deepEqual(validatePlan(plan).map((diagnostic) => [diagnostic.code, diagnostic.stepId]), [['invalid_predicate', 'a'], ['invalid_predicate', 'b']]);
  });

  it('reports statements that are not a single expression', () => {
    assert.deepEqual(codes(makePlan([makeStep('a', { verification: 'result; process.exit()' })])), ['invalid_predicate']);
  });

  it('returns every problem at once', () => {
    const plan = makePlan([makeStep('a', { dependsOn: ['ghost'], agent: 'nobody', verification: '((' }), makeStep('a', { kind: 'tool', tool: 'nope' })]);
    assert.deepEqual(new Set(codes(plan, { tools: [] })), new Set(['duplicate_id', 'missing_dependency', 'missing_agent', 'invalid_predicate', 'unknown_tool']));
  });

  it('words each error for the user, and reports a plan-level problem without a step id', () => {
    assert.deepEqual(validatePlan(makePlan([])), [{ code: 'empty_plan', severity: 'error', message: 'The plan has no steps. Add at least one step.' }]);
    assert.equal(validatePlan(makePlan([makeStep('a'), makeStep('a')]))[0]?.message, 'Step id "a" is used more than once; give each step its own id.');
    // An outside attack (2026-12-03): "café" composed and decomposed were two steps, shown alike, in silence.
    const alike = validatePlan(makePlan([makeStep('caf\u00e9'), makeStep('cafe\u0301'), makeStep('other')]));
    assert.deepEqual(alike.map((diagnostic) => [diagnostic.code, diagnostic.stepId, diagnostic.message]), [
      ['duplicate_id', 'cafe\u0301', 'Step ids "caf\u00e9" and "cafe\u0301" look the same, and differ only in how their letters are encoded; give each step an id of its own.'],
    ]);
    assert.equal(validatePlan(makePlan([makeStep('a', { agent: 'writer' })]))[0]?.message, 'Step "a" uses agent "writer", which the plan\'s agents do not define. Use the agent "default", or add "writer" to the plan\'s agents.');
    assert.equal(validatePlan(makePlan([makeStep('a', { kind: 'tool' })]))[0]?.message, 'Step "a" is a tool step but names no tool; set "tool" or make it an agent step.');
  });

  it('lists the available tools, sorted, or none, when a tool step names an unknown one', () => {
    const step = makeStep('a', { kind: 'tool', tool: 'fly' });
    assert.match(validatePlan(makePlan([step]), { tools: ['write_file', 'read_file'] })[0]!.message, /Choose one of: read_file, write_file\.$/);
    assert.match(validatePlan(makePlan([step]), { tools: [] })[0]!.message, /Choose one of: none\.$/);
  });

  it('says first when a whole MCP server offers nothing (renamed or removed), with the same tool of another server (a trial)', () => {
    const message = (tool: string, tools: string[]): string => validatePlan(makePlan([makeStep('a', { kind: 'tool', tool })]), { tools })[0]!.message;
    const tools = ['read_file', 'mcp__renamed__echo', 'mcp__renamed__get-sum', 'mcp__other__echo'];
    assert.equal(
      message('mcp__everything__echo', tools),
      'Step "a" uses tool "mcp__everything__echo", which is not available. No tool of the MCP server "everything" is offered now: it is not in the configuration any more (renamed or removed), was not allowed to start, or did not start ("Task Planner: MCP servers" in the editor, "task-planner tools" on the command line, say which). The same tool of another server: mcp__other__echo, mcp__renamed__echo. Choose one of: mcp__other__echo, mcp__renamed__echo, mcp__renamed__get-sum, read_file.',
    );
    assert.match(message('mcp__gone__teleport', tools), /No tool of the MCP server "gone" is offered now: [^.]+\. Choose one of:/);
    // A server that is there but lacks the tool, and names that are not an MCP server's, get the list alone.
    assert.match(message('mcp__renamed__teleport', tools), /which is not available\. Choose one of:/);
    for (const tool of ['fly', 'mcp__', 'mcp____echo', 'mcp_x__echo']) assert.match(message(tool, tools), /which is not available\. Choose one of:/, tool);
  });

  it('checks a known tool against a list of names without needing its schema', () => {
    assert.deepEqual(validatePlan(makePlan([makeStep('a', { kind: 'tool', tool: 'read_file', args: { path: 3 } })]), { tools: ['read_file'] }), []);
  });

  it('reports a tool step with a blank tool name once, as naming no tool, also when tools are checked', () => {
    assert.deepEqual(codes(makePlan([makeStep('a', { kind: 'tool', tool: '  ' })])), ['invalid_step']);
    assert.deepEqual(codes(makePlan([makeStep('a', { kind: 'tool' })]), { tools: ['read_file'] }), ['invalid_step']);
  });

  it('holds agent names only against agent steps', () => {
    assert.deepEqual(codes(makePlan([makeStep('a', { kind: 'synthesis_gate', agent: 'ghost' })])), []);
  });

  it('needs either instructions or a title for a manual step, and asks neither of other steps', () => {
    assert.deepEqual(codes(makePlan([makeStep('a', { kind: 'manual', agent: undefined, title: 'Update README.md', input: undefined })])), []);
    assert.deepEqual(codes(makePlan([makeStep('a', { kind: 'manual', agent: undefined, title: ' ', input: 'Update README.md' })])), []);
    assert.deepEqual(codes(makePlan([makeStep('a', { kind: 'manual', agent: undefined, title: '', input: undefined })])), ['invalid_step']);
    assert.deepEqual(codes(makePlan([makeStep('a', { title: ' ', input: '' })])), []);
    assert.equal(validatePlan(makePlan([makeStep('a', { kind: 'manual', agent: undefined, title: '', input: ' ' })]))[0]?.message, 'Step "a" is yours to do but says nothing about what to do; write the instructions in its input.');
  });

  it('does not check agents\' tools when no tools are given, and warns about each unavailable one by name', () => {
    const plan = makePlan([makeStep('a', { agent: 'w' })], { agents: { w: { prompt: 'p', tools: ['read_file', 'fly', 'swim'] } } });
    assert.deepEqual(validatePlan(plan), []);
    assert.deepEqual(validatePlan(plan, { tools: ['read_file'] }).map((diagnostic) => diagnostic.message), [
      'Agent "w" lists tool "fly", which is not available; it will not be offered.',
      'Agent "w" lists tool "swim", which is not available; it will not be offered.',
    ]);
  });

  it('explains invalid arguments with the tool\'s expected fields, and a problem of the whole arguments without a field name', () => {
    const strict: Tool = { name: 'noop', description: 'does nothing', effects: 'read', inputSchema: z.object({}).strict(), run: async () => '' };
    const both: ToolRegistry = { names: () => ['read_file', 'noop'], get: (name) => (name === 'read_file' ? readFile : name === 'noop' ? strict : undefined) };
    const [missing] = validatePlan(makePlan([makeStep('a', { kind: 'tool', tool: 'read_file', args: {} })]), { tools: both });
    assert.equal(missing?.message, 'Step "a": arguments for "read_file" are invalid: path is missing. "read_file" takes: path (required), maxBytes.');
    const [extra] = validatePlan(makePlan([makeStep('a', { kind: 'tool', tool: 'noop', args: { x: 1 } })]), { tools: both });
    assert.equal(extra?.message, 'Step "a": arguments for "noop" are invalid: "x" is not an argument it takes. Edit the step\'s arguments to what "noop" expects.');
  });

  // The second newcomer's find (2026-12-01): "{{results.reed}}" validated clean, scored 10/10 and was written into the file.
  it('warns of a {{results.<id>}} naming no step, which would stay as written', () => {
    const plan = makePlan([
      makeStep('read'),
      makeStep('copy', { dependsOn: ['read'], input: 'Copy {{results.reed}} and {{results.read.content}}', args: { note: '{{ results.ghost.x }}', home: '$HOME' } }),
    ]);
    const found = validatePlan(plan).filter((diagnostic) => diagnostic.code === 'unknown_reference');
    assert.deepEqual(found.map((diagnostic) => [diagnostic.severity, diagnostic.stepId, diagnostic.message]), [
      ['warning', 'copy', 'Step "copy" uses {{results.reed}}, but no step of this plan has that id: it would stay as written. Correct the step id.'],
      ['warning', 'copy', 'Step "copy" uses {{results.ghost.x}}, but no step of this plan has that id: it would stay as written. Correct the step id.'],
    ]);
  });

  it('still holds a list holding a template against the schema: only a whole string is filled in at run time', () => {
    assert.deepEqual(codes(makePlan([makeStep('b', { kind: 'tool', tool: 'read_file', args: { path: ['$a'] } })]), { tools: registry }), ['invalid_args']);
  });

  describe('skills', () => {
    const plan = makePlan([
      makeStep('a', { skills: ['release', 'nope', '\u202e../x'] }),
      makeStep('b', { skills: ['release'] }),
      makeStep('c', { kind: 'tool', tool: 'read_file', args: { path: 'x' }, skills: ['release'] }),
    ]);

    it('names the unknown skills of a step with the available ones, escaping what a name could hide', () => {
      const found = validatePlan(plan, { skills: ['tests', 'release'] });
      assert.deepEqual(found, [
        {
          code: 'unknown_skill',
          severity: 'error',
          stepId: 'a',
          message: 'Step "a" uses the skills "nope", "\\u202e../x", which are not in the catalogue; available: release, tests.',
        },
        {
          code: 'invalid_step',
          severity: 'error',
          stepId: 'c',
          message: 'Step "c" names skills, but only agent steps use them; remove "skills" from it, or make it an agent step.',
        },
      ]);
      assert.match(validatePlan(makePlan([makeStep('a', { skills: ['x'] })]), { skills: [] })[0]!.message, /Step "a" uses the skill "x", which is not in the catalogue; this workspace has none \(see the README on adding skills\)\./);
    });

    it('checks skill names only against a catalogue it is given', () => {
      assert.deepEqual(validatePlan(plan).map((diagnostic) => diagnostic.code), ['invalid_step']);
    });
  });

  describe('properties', () => {
    it('finds no error in random DAGs', () => {
      fc.assert(fc.property(dagPlanArbitrary, (plan) => {
        assert.deepEqual(validatePlan(plan), []);
      }), { numRuns: 200 });
    });

    it('reports every injected cycle and missing dependency', () => {
      const injection = fc.record({ cycles: fc.array(fc.integer({ min: 2, max: 4 }), { maxLength: 3 }), missing: fc.array(fc.nat(), { maxLength: 3 }) });
      fc.assert(fc.property(dagPlanArbitrary, injection, (plan, { cycles, missing }) => {
        const steps = [...plan.steps];
        // Each injected cycle is a fresh ring of steps, so it cannot merge with another.
        cycles.forEach((length, cycleIndex) => {
          for (let index = 0; index < length; index++) {
            steps.push({ ...steps[0]!, id: `C${cycleIndex}_${index}`, dependsOn: [`C${cycleIndex}_${(index + 1) % length}`] });
          }
        });
        const missingOn = missing.map((pick) => steps[pick % steps.length]!.id);
        const withMissing = steps.map((step) => (missingOn.includes(step.id) ? { ...step, dependsOn: [...step.dependsOn, `ghost_${step.id}`] } : step));
        const diagnostics = validatePlan({ ...plan, steps: withMissing });
        const cycleSteps = diagnostics.filter((diagnostic) => diagnostic.code === 'cycle').map((diagnostic) => diagnostic.message);
        cycles.forEach((_, cycleIndex) => {
          assert.ok(cycleSteps.some((message) => message.includes(`C${cycleIndex}_`)), `cycle C${cycleIndex} not reported`);
        });
        assert.equal(cycleSteps.length, cycles.length);
        for (const id of new Set(missingOn)) {
          assert.ok(diagnostics.some((diagnostic) => diagnostic.code === 'missing_dependency' && diagnostic.stepId === id && diagnostic.message.includes(`ghost_${id}`)));
        }
      }), { numRuns: 200 });
    });
  });
});
