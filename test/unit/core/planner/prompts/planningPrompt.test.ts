import assert from 'node:assert/strict';
import { buildPlanningPrompt, renderWorkspace, strategyGuidance } from '../../../../../src/core/planner/prompts/planningPrompt';
import type { PlanningStrategy } from '../../../../../src/core/session/planningPrompt';
import { countTokens } from '../../../../../src/core/llm/tokenCount';
import { plannerOutputSchema } from '../../../../../src/core/plan/planSchema';
import { checkKinds, maxChecksPerStep, stepKinds } from '../../../../../src/shared/vocabulary';

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
    assert.match(systems[2]!, /Break the goal into concrete sub-problems before assigning tools to each one/);
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

describe('buildPlanningPrompt: what the planner model sees', () => {
  const tools = [{ name: 'read_file', description: 'Reads a file.', parameters: { type: 'object' } }, { name: 'ask_user', description: 'Asks the user.' }];

  it('lists every tool with its description and parameter schema, then the guidance, and asks for JSON only', () => {
    const messages = buildPlanningPrompt({ objective: 'x', tools, strategy: 'react' });
    assert.deepEqual(messages.map((message) => message.role), ['system', 'user']);
    const system = String(messages[0]?.content);
    assert.ok(system.endsWith(`\n\nAvailable tools:\n- read_file: Reads a file.\n  parameters: {"type":"object"}\n- ask_user: Asks the user.\n\n${strategyGuidance.react}\n\nReply with the plan as JSON only.`), system);
    assert.doesNotMatch(system, /No tools are available/);
  });

  it('sends the trimmed objective alone when there is no workspace and the feedback is blank', () => {
    const [, user] = buildPlanningPrompt({ objective: '  Add tests \n', tools, strategy: 'react', feedback: '   ', workspace: {} });
    assert.equal(user?.content, 'Objective:\nAdd tests');
  });

  it('puts the workspace and the trimmed feedback after the objective, and sends image attachments as image parts', () => {
    const attachments = [
      { kind: 'link' as const, ref: 'https://x.test', label: 'Docs' },
      { kind: 'image' as const, ref: 'data:image/png;base64,AAAA' },
      { kind: 'image' as const, ref: 'http://img.test/a.png', label: 'shot' },
      { kind: 'image' as const, ref: 'file:///home/me/b.png' },
      { kind: 'file' as const, ref: 'https://files.test/c.txt' },
    ];
    const workspace = { rootLabel: 'demo', files: ['a.ts', 'b/c.ts'], openFiles: [{ path: 'notes.md' }, { path: 'a.ts', text: 'const a = 1;' }], attachments };
    const [, user] = buildPlanningPrompt({ objective: 'Add tests', tools, strategy: 'react', workspace, feedback: ' Fewer steps \n' });
    const text = 'Objective:\nAdd tests\n\nWorkspace: demo\n\nFiles (2):\na.ts\nb/c.ts\n\nOpen editors:\n- notes.md\n--- a.ts\nconst a = 1;\n\n'
      + 'Attachments:\n- link: Docs https://x.test\n- image: (image data attached)\n- image: shot http://img.test/a.png\n- image: file:///home/me/b.png\n- file: https://files.test/c.txt\n\n'
      + 'Feedback on the previous plan (take it into account):\nFewer steps';
    assert.deepEqual(user?.content, [
      { type: 'text', text },
      { type: 'image', url: 'data:image/png;base64,AAAA' },
      { type: 'image', url: 'http://img.test/a.png' },
    ]);
  });

  it('bounds the workspace section by the given token budget', () => {
    const workspace = { openFiles: [{ path: 'big.txt', text: 'word '.repeat(5_000) }] };
    const [, small] = buildPlanningPrompt({ objective: 'x', tools, strategy: 'react', workspace, snapshotTokenBudget: 200 });
    const [, large] = buildPlanningPrompt({ objective: 'x', tools, strategy: 'react', workspace });
    assert.ok(countTokens(String(small?.content)) <= 210, String(countTokens(String(small?.content))));
    assert.ok(countTokens(String(large?.content)) > 1_000, 'the default budget is larger');
  });
});

describe('renderWorkspace', () => {
  it('summarises a tree that does not fit by folder (two levels deep, largest first, top-level files as "(root)"), then as many paths as fit', () => {
    const files = [
      ...Array.from({ length: 40 }, (_, index) => `src/core/deep/file${index}.ts`),
      ...Array.from({ length: 30 }, (_, index) => `test/t${index}.ts`),
      ...Array.from({ length: 30 }, (_, index) => `docs/d${index}.md`),
      'README.md',
    ];
    const text = renderWorkspace({ files }, 500);
    const [head, some, ...paths] = text.split('\n');
    assert.equal(head, 'Files (101) by folder: src/core/ 40, docs/ 30, test/ 30, (root) 1');
    assert.equal(some, 'Some paths:');
    assert.deepEqual(paths.slice(0, 3), ['src/core/deep/file0.ts', 'src/core/deep/file1.ts', 'src/core/deep/file2.ts']);
    assert.equal(paths.at(-1), '… (more files)');
    assert.ok(countTokens(text) <= 200, `the tree gets 40 % of the budget: ${countTokens(text)} tokens`);
    assert.ok(countTokens(text) > 150, `and uses it: ${countTokens(text)} tokens`);
  });

  it('cuts a long folder summary to a third of the tree share', () => {
    const files = Array.from({ length: 300 }, (_, index) => `folder${index}/file.ts`);
    const head = renderWorkspace({ files }, 600).split('\n')[0]!;
    assert.match(head, /^Files \(300\) by folder: folder0\/ 1, folder1\/ 1, .* …$/);
    assert.ok(countTokens(head) <= 80, `${countTokens(head)} tokens`);
  });

  it('gives each open file an equal share of 45 % of the budget, cutting its text', () => {
    const openFiles = [{ path: 'one.txt', text: 'alpha '.repeat(2_000) }, { path: 'two.txt', text: 'beta '.repeat(2_000) }];
    const text = renderWorkspace({ openFiles }, 1_000);
    const [one, two] = text.replace('Open editors:\n', '').split('\n--- two.txt\n');
    assert.match(one!, /^--- one\.txt\n(alpha ?)+\n… \(cut\)$/);
    assert.match(two!, /^(beta ?)+\n… \(cut\)$/);
    for (const block of [one!, `--- two.txt\n${two!}`]) {
      assert.ok(countTokens(block) <= 225, `${countTokens(block)} tokens`);
      assert.ok(countTokens(block) >= 200, `${countTokens(block)} tokens`);
    }
  });

  it('gives attachments 15 % of the budget and marks the ones left out', () => {
    const attachments = Array.from({ length: 100 }, (_, index) => ({ kind: 'link' as const, ref: `https://x.test/${index}` }));
    const text = renderWorkspace({ attachments }, 400);
    assert.match(text, /^Attachments:\n- link: https:\/\/x\.test\/0\n[\s\S]*\n… \(more attachments\)$/);
    assert.ok(countTokens(text) <= 65, `${countTokens(text)} tokens`);
  });

  it('cuts the whole section to the budget, marking the cut', () => {
    const text = renderWorkspace({ rootLabel: 'name '.repeat(500) }, 100);
    assert.match(text, /^Workspace: (name ?)+\n… \(workspace summary cut\)$/);
    assert.ok(countTokens(text) <= 100);
    assert.equal(renderWorkspace({}, 100), '');
  });
});

describe('buildPlanningPrompt: verification', () => {
  const system = String(buildPlanningPrompt({ objective: 'x', tools: [], strategy: 'react' })[0]?.content);

  it('teaches checks with every kind of check and one example', () => {
    const rule = system.split('\n').find((line) => line.startsWith('- "checks": '))!;
    assert.deepEqual(checkKinds.filter((kind) => rule.includes(`${kind} {`)), [...checkKinds]);
    assert.match(rule, /command \{argv, cwd\?, expectExitCode\? \(default 0\), outputContains\?\}/);
    assert.match(rule, /e\.g\. \[\{"kind":"command","argv":\["npm","test"\]\}\]\.$/);
  });

  it('teaches output schemas and predicates with one example each, and asks for verification', () => {
    assert.match(system, /\n- "outputSchema" \(agent and synthesis_gate steps\): a JSON Schema the answer must match, parsed into the result, e\.g\. \{"type":"object",/);
    assert.match(system, /\n- "verification": an optional JavaScript expression over input, result, depends and checks, .* or a string saying what is wrong, e\.g\. result\.city === depends\.S001\.city\. An agent's result is \{"answer", "changes"\} \(test result\.answer\) or its outputSchema's object\.\n/);
    assert.match(system, /\n- Include verification: check that a file exists after writing it, run the tests after changing code\.\n/);
  });

  it('keeps the teaching in the stable start of the prompt, before the tools and the strategy', () => {
    const withTools = String(buildPlanningPrompt({ objective: 'y', tools: [{ name: 'read_file', description: 'Reads a file.' }], strategy: 'plan_act_reflect' })[0]?.content);
    const stable = withTools.slice(0, withTools.indexOf('\n\nAvailable tools:'));
    assert.equal(stable, system.slice(0, system.indexOf('\n\nAvailable tools:')));
    assert.match(stable, /"checks"[\s\S]*"outputSchema"[\s\S]*Include verification/);
  });

  it('stays concise: the plan rules, teaching included (each step\'s files to change too, and the patterns of requests), are at most 760 tokens', () => {
    const rules = system.slice(0, system.indexOf('\n\nAvailable tools:'));
    assert.match(rules, /"writes": files a step may change/);
    assert.ok(countTokens(rules) <= 760, `${countTokens(rules)} tokens`);
  });

  it('teaches the patterns of requests: a list in its order, questions as clarifications, real argv, and test and fix that can succeed (issue 29)', () => {
    assert.match(
      system,
      /\n- A list of instructions runs in its order \(each step depends on the one before\) unless clearly independent .*; a command or test step depends on the changes before it\. A question in the objective is a clarification step the work after it depends on\.\n/,
    );
    assert.match(system, /\n- "argv" holds the program and real arguments only, never words of the request \("run mypy on src": \["mypy","src"\]\)\.\n/);
    assert.match(
      system,
      /\n- Run the tests and fix what fails: a run_command step with "allowFailure": true .* the fix depends on it, reads \{\{results\.ID\.stdout\}\}, has a command check running the tests again and "when": "depends\.ID\.exitCode !== 0 \|\| 'the tests passed'" \(not needed after a pass\)\. A dependent of a failed or skipped step is skipped\./,
    );
  });
});

describe('plannerOutputSchema: verification', () => {
  const step = { id: 'S001', title: 'Write notes', kind: 'agent', dependsOn: [], input: 'Write notes.md' };

  it('accepts checks and an output schema on a step', () => {
    const plan = {
      objective: 'Notes',
      steps: [{ ...step, checks: [{ kind: 'file_exists', path: 'notes.md' }, { kind: 'command', argv: ['npm', 'test'], expectExitCode: 0 }], outputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
    };
    const parsed = plannerOutputSchema.safeParse(plan);
    assert.ok(parsed.success, parsed.error?.message);
    assert.deepEqual(parsed.data.steps[0]?.checks, plan.steps[0]?.checks);
    assert.deepEqual(parsed.data.steps[0]?.outputSchema, plan.steps[0]?.outputSchema);
  });

  it('refuses an unknown kind of check, and more checks on one step than a plan may carry', () => {
    assert.equal(plannerOutputSchema.safeParse({ objective: 'x', steps: [{ ...step, checks: [{ kind: 'file_smells_nice', path: 'a' }] }] }).success, false);
    const many = Array.from({ length: maxChecksPerStep + 1 }, (_, index) => ({ kind: 'file_exists', path: `f${index}` }));
    assert.equal(plannerOutputSchema.safeParse({ objective: 'x', steps: [{ ...step, checks: many.slice(0, maxChecksPerStep) }] }).success, true);
    assert.equal(plannerOutputSchema.safeParse({ objective: 'x', steps: [{ ...step, checks: many }] }).success, false);
  });
});
