import assert from 'node:assert/strict';
import { z } from 'zod';
import { checkName, critiquePlan, critiqueVerdict, mergeCritique, type CritiqueIssue } from '../../../../src/core/plan/critiquePlan';
import type { Step } from '../../../../src/core/plan/planSchema';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import type { Tool, ToolEffect } from '../../../../src/core/tools/tool';
import { makePlan, makeStep } from '../../../support/randomPlans';

const checks = (steps: Step[]): [string, string, string | undefined][] =>
  critiquePlan(makePlan(steps)).issues.map((issue: CritiqueIssue) => [issue.check, issue.severity, issue.stepId]);

/** A chain a → b → c whose inputs refer to their dependency: a plan with no findings. */
const clean = (): Step[] => [
  makeStep('a'),
  makeStep('b', { dependsOn: ['a'], input: 'use {{results.a}}' }),
  makeStep('c', { dependsOn: ['b'], input: 'use $b' }),
];

describe('critiquePlan', () => {
  it('gives a clean plan 10 and no recommendations', () => {
    const critique = critiquePlan(makePlan(clean()));
    assert.deepEqual(critique, { score: 10, issues: [], summary: 'Score 10/10: no problems found in how the plan is built. The critic does not judge whether its steps do what you asked.', recommendations: [] });
  });

  it('flags missing_dependency as critical', () => {
    assert.deepEqual(checks([makeStep('a', { dependsOn: ['ghost'], input: 'ghost' })]), [['missing_dependency', 'critical', 'a']]);
  });

  it('flags a cycle as critical', () => {
    const issues = checks([makeStep('a', { dependsOn: ['b'], input: 'b' }), makeStep('b', { dependsOn: ['a'], input: 'a' })]);
    assert.deepEqual(issues.map(([check, severity]) => [check, severity]), [['cycle', 'critical']]);
  });

  it('flags parallel_explosion for a level of more than 10 steps, but not 10', () => {
    const wide = (count: number): Step[] => [
      ...Array.from({ length: count }, (_, index) => makeStep(`p${index}`)),
      makeStep('gate', { kind: 'synthesis_gate', dependsOn: Array.from({ length: count }, (_, index) => `p${index}`) }),
    ];
    assert.ok(checks(wide(11)).some(([check, severity]) => check === 'parallel_explosion' && severity === 'critical'));
    assert.ok(!checks(wide(10)).some(([check]) => check === 'parallel_explosion'));
  });

  it('flags missing_gate for 3 parallel steps with no gate downstream of them, and not with one', () => {
    const parallel = [makeStep('a'), makeStep('b'), makeStep('c')];
    const withoutGate = [...parallel, makeStep('d', { dependsOn: ['a', 'b', 'c'], input: 'a b c' })];
    const withGate = [...parallel, makeStep('d', { kind: 'synthesis_gate', dependsOn: ['a', 'b', 'c'] })];
    assert.deepEqual(checks(withoutGate), [['missing_gate', 'warning', 'a']]);
    assert.deepEqual(checks(withGate), []);
    assert.deepEqual(checks([makeStep('a'), makeStep('b'), makeStep('c', { dependsOn: ['a', 'b'], input: 'a b' })]), []);
    // A gate further down counts through the steps between.
    assert.deepEqual(
      checks([...parallel, makeStep('d', { dependsOn: ['a', 'b', 'c'], input: 'a b c' }), makeStep('g', { kind: 'synthesis_gate', dependsOn: ['d'] })]),
      [],
    );
  });

  it('does not count a later gate that combines other steps (issue 29: any later gate used to do)', () => {
    const steps = [
      makeStep('a'), makeStep('b'), makeStep('c'),
      makeStep('x', { dependsOn: ['a', 'b', 'c'], input: 'a b c' }),
      makeStep('y', { dependsOn: ['x'], input: 'x' }),
      makeStep('z', { dependsOn: ['y'], input: 'y' }),
      makeStep('other', { input: 'unrelated' }),
      makeStep('gate', { kind: 'synthesis_gate', dependsOn: ['other'] }),
    ];
    const critique = critiquePlan(makePlan(steps));
    assert.deepEqual(critique.issues.filter((found) => found.check === 'missing_gate').map((found) => [found.stepId, found.message]), [
      ['a', 'Level 0 has 4 parallel steps and no synthesis gate after a, b, c to combine their results.'],
    ]);
    // Two of three combined leave one: not a wide level of uncombined results.
    assert.deepEqual(
      checks([
        makeStep('a'),
        makeStep('b'),
        makeStep('c'),
        makeStep('g', { kind: 'synthesis_gate', dependsOn: ['a', 'b'] }),
        makeStep('d', { dependsOn: ['c', 'g'], input: 'c g' }),
      ]),
      [],
    );
  });

  it('flags optimism_bias for a critical step that reaches outside the plan and stops the run when it fails, retried or not', () => {
    for (const patch of [
      { input: 'Fetch the release notes' },
      { input: 'Search the web for the docs' },
      { input: 'Call the GitHub API' },
      { input: 'GET http://x' },
      { input: 'Fetch the notes', onFailure: 'retry' as const, maxAttempts: 3 },
    ]) {
      assert.deepEqual(checks([makeStep('a', patch)]), [['optimism_bias', 'warning', 'a']], JSON.stringify(patch));
    }
    const retried = critiquePlan(makePlan([makeStep('a', { input: 'Fetch the notes', onFailure: 'retry', maxAttempts: 3 })])).issues[0]!;
    assert.match(retried.message, /if it still fails after its 3 attempts, the whole run stops/);
    assert.deepEqual(checks([makeStep('a', { input: 'Fetch the notes', critical: false })]), []);
    assert.deepEqual(checks([makeStep('a', { input: 'Fetch the notes', onFailure: 'replan' })]), []);
    // A change with its check: only the optimism check is under test here.
    assert.deepEqual(checks([makeStep('a', { input: 'Rename the variable', checks: [{ kind: 'command', argv: ['npm', 'test'] }] })]), []);
    assert.deepEqual(checks([makeStep('a', { title: 'Read the command line parser', input: 'Read src/cli.js' })]), []);
  });

  it('does not flag a step for naming the product\'s commands or identifiers, or for a pull request (a newcomer\'s trial)', () => {
    for (const title of ['Make `notes search` case-insensitive', 'Rename searchNotes to findNotes', 'Open a pull request', 'Search the docs folder for TODO']) {
      assert.deepEqual(checks([makeStep('a', { title, input: title, checks: [{ kind: 'command', argv: ['npm', 'test'] }] })]), [], title);
    }
  });

  it('says nothing of a step the run skips (done already), only what stops the plan', () => {
    const done = { skipped: true, input: 'Fetch the release notes and write CHANGES.md', writes: ['CHANGES.md'] };
    assert.deepEqual(checks([makeStep('a', done), makeStep('lonely', { skipped: true }), makeStep('b', { input: 'x' })]), []);
    assert.deepEqual(checks([makeStep('a', { ...done, dependsOn: ['ghost'] })]), [['missing_dependency', 'critical', 'a']]);
  });

  it('takes a dependency on an agent step that says what it changes (writes) as order: its work is the change', () => {
    const edit = makeStep('edit', { input: 'Make the search case-insensitive', writes: ['src/notes.ts'], checks: [{ kind: 'command', argv: ['npm', 'test'] }] });
    const flow = (steps: Step[]): string[] => checks(steps).filter(([check]) => check === 'disconnected_flow').map(([, , stepId]) => stepId ?? '');
    assert.deepEqual(flow([edit, makeStep('doc', { dependsOn: ['edit'], input: 'Document the new behaviour in README.md' })]), []);
    // An agent step without writes has a result to use: its dependent is still told so.
    assert.deepEqual(flow([makeStep('look'), makeStep('doc', { dependsOn: ['look'], input: 'Document the new behaviour in README.md' })]), ['doc']);
  });

  it('takes the dependencies of a step imported from a task file as the file\'s order', () => {
    const imported = (id: string, title: string, dependsOn: string[]): Step =>
      makeStep(id, { title, dependsOn, input: `${title}\n\nFrom TODO.md, line ${id.slice(1)}:\n- Section: Code` });
    const flow = (steps: Step[]): string[] => checks(steps).filter(([check]) => check === 'disconnected_flow').map(([, , stepId]) => stepId ?? '');
    assert.deepEqual(flow([imported('S1', 'Look into the bug', []), imported('S2', 'Fix the bug', ['S1'])]), []);
    assert.deepEqual(flow([makeStep('S1'), makeStep('S2', { title: 'Fix the bug', input: 'Fix the bug', dependsOn: ['S1'] })]), ['S2']);
  });

  it('does not call a command transient: a missing program or a red suite fails the same way again (issue 29)', () => {
    const critique = critiquePlan(
      makePlan([makeStep('a', { kind: 'tool', agent: undefined, input: undefined, tool: 'run_command', args: { argv: ['make'] } })]),
    );
    assert.deepEqual(critique.issues, []);
  });

  it('flags disconnected_flow: warning when no dependency is referenced, info when some are not', () => {
    assert.deepEqual(checks([makeStep('a'), makeStep('b', { dependsOn: ['a'], input: 'unrelated' })]), [['disconnected_flow', 'warning', 'b']]);
    assert.deepEqual(checks([makeStep('a'), makeStep('b'), makeStep('c', { dependsOn: ['a', 'b'], input: 'from {{results.a.x}}' })]), [
      ['disconnected_flow', 'info', 'c'],
    ]);
  });

  it('counts {{results.<id>, $<id> and the id as a word, ignoring case, as references', () => {
    for (const input of ['{{results.Load}}', '$load', 'summarize LOAD output', 'use the load step']) {
      assert.deepEqual(checks([makeStep('load', { input: 'x' }), makeStep('b', { dependsOn: ['load'], input })]), [], input);
    }
    assert.deepEqual(
      checks([makeStep('a1', { input: 'x' }), makeStep('b', { dependsOn: ['a1'], input: 'see a10' })]).map(([check]) => check),
      ['disconnected_flow'],
    );
  });

  it('does not count a reference to S10 as one to S1', () => {
    for (const input of ['{{results.S10}}', 'use $S10']) {
      const critique = critiquePlan(makePlan([makeStep('S1'), makeStep('S10'), makeStep('b', { dependsOn: ['S1', 'S10'], input })]));
      assert.deepEqual(
        critique.issues.map((issue) => [issue.check, issue.severity, issue.message]),
        [['disconnected_flow', 'info', 'Step "b" does not refer to the results of S1.']],
        input,
      );
    }
  });

  it('looks for references in args too', () => {
    assert.deepEqual(checks([makeStep('a'), makeStep('b', { kind: 'tool', tool: 'read_file', args: { path: '$a' }, dependsOn: ['a'], input: undefined })]), []);
  });

  it('steps whose work is what they change (writes, commands, your own steps) have no result to combine or to use: no gate, no orphan', () => {
    const tool = (id: string, name: string, args: Record<string, unknown>, patch: Partial<Step> = {}): Step =>
      makeStep(id, { kind: 'tool', agent: undefined, input: undefined, tool: name, args, ...patch });
    // The newcomer's plan: three files created at once, then a listing.
    const writes = [
      tool('w1', 'write_file', { path: 'a.md', content: '' }),
      tool('w2', 'write_file', { path: 'b.md', content: '' }),
      tool('w3', 'run_command', { argv: ['touch', 'c.md'] }),
      makeStep('m', { kind: 'manual', agent: undefined, input: 'Tell the team' }),
      tool('list', 'list_files', {}, { dependsOn: ['w1'] }),
    ];
    assert.deepEqual(checks(writes), []);
    // Three reads at once, their results combined by nothing: still a finding; a read nothing uses, too.
    const reads = [
      tool('r1', 'read_file', { path: 'a.md' }),
      tool('r2', 'read_file', { path: 'b.md' }),
      tool('r3', 'read_file', { path: 'c.md' }),
      tool('next', 'list_files', {}, { dependsOn: ['r1'] }),
    ];
    assert.deepEqual(checks(reads).map(([check, , stepId]) => `${check} ${stepId}`), ['missing_gate r1', 'orphan_step r2', 'orphan_step r3']);
  });

  it('flags orphan_step outside the last level as info', () => {
    assert.deepEqual(checks([makeStep('a'), makeStep('lonely'), makeStep('b', { dependsOn: ['a'], input: 'a' })]), [['orphan_step', 'info', 'lonely']]);
    // An agent's step naming the files it changes works by them (a trial's README step read "Result never used").
    assert.deepEqual(checks([makeStep('a'), makeStep('docs', { writes: ['README.md'] }), makeStep('b', { dependsOn: ['a'], input: 'a' })]), []);
  });

  it('flags destructive_without_approval', () => {
    for (const tool of ['write_file', 'edit_file', 'delete_file', 'run_command']) {
      const issues = checks([makeStep('a', { kind: 'tool', tool, args: {}, requiresApproval: false, onFailure: 'skip' })]);
      assert.deepEqual(issues, [['destructive_without_approval', 'warning', 'a']], tool);
    }
    assert.deepEqual(checks([makeStep('a', { kind: 'tool', tool: 'read_file', args: {}, requiresApproval: false })]), []);
  });

  it('judges a tool by the effect it declares: a change with approval off is flagged, whatever the tool is called', () => {
    const named = (name: string, effects: ToolEffect): Tool => ({
      name,
      description: name,
      inputSchema: z.unknown(),
      effects,
      run: () => Promise.resolve(null),
    });
    const tools = createToolRegistry([named('scribble', 'write'), named('shred', 'delete'), named('write_file', 'read'), named('create_directory', 'write')]);
    const flagged = (tool: string): string[] =>
      critiquePlan(makePlan([makeStep('a', { kind: 'tool', tool, args: {}, requiresApproval: false, onFailure: 'skip' })]), { tools })
        .issues.filter((issue) => issue.check === 'destructive_without_approval')
        .map((issue) => issue.stepId!);
    assert.deepEqual(flagged('scribble'), ['a']);
    assert.deepEqual(flagged('shred'), ['a']);
    assert.deepEqual(flagged('create_directory'), ['a']);
    assert.deepEqual(flagged('write_file'), []);
    assert.deepEqual(checks([makeStep('a', { kind: 'tool', tool: 'create_directory', args: {}, requiresApproval: false, onFailure: 'skip' })]), [
      ['destructive_without_approval', 'warning', 'a'],
    ]);
  });

  describe('what the plan cannot keep (issue 29: each of these scored 10)', () => {
    const tools = createToolRegistry(builtinTools());
    const write = (patch: Partial<Step> = {}): Step =>
      makeStep('w', {
        kind: 'tool',
        agent: undefined,
        input: undefined,
        tool: 'write_file',
        args: { path: 'a.txt', content: 'x' },
        checks: [{ kind: 'file_exists', path: 'a.txt' }],
        ...patch,
      });

    it('flags a step Restricted Mode refuses when the workspace is not trusted: critical when it stops the run', () => {
      const critique = critiquePlan(makePlan([write()]), { tools, trusted: false });
      assert.deepEqual(
        critique.issues.map((issue) => [issue.check, issue.name, issue.severity, issue.message]),
        [
          [
            'refused_untrusted',
            'Refused in Restricted Mode',
            'critical',
            'Step "w" uses write_file, which Restricted Mode refuses in this untrusted workspace: the run stops there.',
          ],
        ],
      );
      assert.equal(critique.score, 5);
      assert.match(critique.recommendations[0] ?? '', /Trust the workspace/);
      const skipped = critiquePlan(makePlan([write({ critical: false })]), { tools, trusted: false });
      assert.deepEqual(
        skipped.issues.map((issue) => [issue.severity, issue.message]),
        [['warning', 'Step "w" uses write_file, which Restricted Mode refuses in this untrusted workspace: the step is skipped.']],
      );
      const checked = critiquePlan(makePlan([makeStep('a', { kind: 'manual', agent: undefined, checks: [{ kind: 'command', argv: ['npm', 'test'] }] })]), {
        tools,
        trusted: false,
      });
      assert.deepEqual(
        checked.issues.map((issue) => [issue.check, issue.message]),
        [['refused_untrusted', 'Step "a" checks its work with a command, which Restricted Mode refuses in this untrusted workspace: the run stops there.']],
      );
    });

    it('flags a read_file of a file tools refuse (credentials, .git): critical when it stops the run (found by a newcomer: validate said 10/10)', () => {
      const read = (path: string, patch: Partial<Step> = {}) => makeStep('r', { kind: 'tool', agent: undefined, input: undefined, tool: 'read_file', args: { path }, ...patch });
      const critique = critiquePlan(makePlan([read('./config/../.env')]), { tools });
      assert.deepEqual(
        critique.issues.map((issue) => [issue.check, issue.name, issue.severity, issue.message]),
        [
          [
            'withheld_read',
            'Reads a file tools never read',
            'critical',
            'Step "r" reads .env, which tools refuse: a file of this name holds credentials (keys, passwords, tokens), and tools do not read it: ' +
              'what a tool reads goes to the model. The step fails and the run stops there.',
          ],
        ],
      );
      assert.equal(critique.score, 5);
      assert.match(critique.recommendations[0] ?? '', /\.env\.example/);
      // A place, not a name: its advice is not to read a copy (the tools' own advice, one rule).
      assert.doesNotMatch(critiquePlan(makePlan([read('.git/config')]), { tools }).recommendations[0] ?? '', /\.env\.example/);
      assert.deepEqual(critiquePlan(makePlan([read('.git\\config', { critical: false })]), { tools }).issues.map((issue) => [issue.severity, issue.message]), [
        ['warning', 'Step "r" reads .git/config, which tools refuse: it is inside .git, which tools do not read (git\'s config can hold a remote\'s token; Task Planner\'s journals hold what steps read). The step fails.'],
      ]);
      assert.deepEqual(critiquePlan(makePlan([read('.env.example')]), { tools }).issues, []);
    });

    it('says nothing of trust when the workspace is trusted or its trust is not known, nor of reads', () => {
      assert.deepEqual(critiquePlan(makePlan([write()]), { tools, trusted: true }).issues, []);
      assert.deepEqual(critiquePlan(makePlan([write()]), { tools }).issues, []);
      assert.deepEqual(
        critiquePlan(makePlan([makeStep('r', { kind: 'tool', agent: undefined, input: undefined, tool: 'read_file', args: { path: 'a.txt' } })]), {
          tools,
          trusted: false,
        }).issues,
        [],
      );
    });

    it('flags a plan that is one step for a person restating the request', () => {
      const request = 'Tidy up the release process, please.';
      const critique = critiquePlan(
        makePlan([makeStep('S001', { kind: 'manual', agent: undefined, title: 'Tidy up the release process', input: request })], { objective: request }),
        { tools },
      );
      assert.deepEqual(critique.issues.map((issue) => [issue.check, issue.name, issue.severity]), [['restated_request', 'Nothing planned', 'warning']]);
      assert.equal(critique.score, 6);
      // A person's step that is part of a plan, or says more than the request, is not that.
      const more = makeStep('S001', { kind: 'manual', agent: undefined, title: 'Ask legal', input: 'Ask legal which license applies to the vendored code' });
      assert.deepEqual(critiquePlan(makePlan([more], { objective: 'Pick a license' }), { tools }).issues, []);
    });
  });

  describe('score', () => {
    it('is 10 − 3·critical − warning − 0.5·info', () => {
      // 1 critical (11 steps at once) + 1 warning (disconnected) → 10 − 3 − 1 = 6
      const wide = Array.from({ length: 11 }, (_, index) => makeStep(`p${index}`));
      const steps = [
        ...wide,
        makeStep('gate', { kind: 'synthesis_gate', dependsOn: wide.map((step) => step.id) }),
        makeStep('z', { dependsOn: ['gate'], input: 'x' }),
      ];
      assert.equal(critiquePlan(makePlan(steps)).score, 6);
    });

    it('rounds half away from zero', () => {
      // one info → 9.5 → 10; three infos → 8.5 → 9
      assert.equal(critiquePlan(makePlan([makeStep('a'), makeStep('lonely'), makeStep('b', { dependsOn: ['a'], input: 'a' })])).score, 10);
      const threeOrphans = [makeStep('x'), makeStep('y'), makeStep('z'), makeStep('a'), makeStep('b', { dependsOn: ['a'], input: 'a' })];
      const critique = critiquePlan(makePlan(threeOrphans));
      assert.deepEqual(critique.issues.map((issue) => issue.check).sort(), ['missing_gate', 'orphan_step', 'orphan_step', 'orphan_step']);
      // 10 − 1 − 1.5 = 7.5 → 8
      assert.equal(critique.score, 8);
    });

    it('never goes below 1', () => {
      const steps = Array.from({ length: 6 }, (_, index) => makeStep(`s${index}`, { dependsOn: [`ghost${index}`], input: `ghost${index}` }));
      const critique = critiquePlan(makePlan(steps));
      assert.equal(critique.score, 1);
      assert.match(critique.summary, /cannot start until its errors are fixed/);
    });
  });

  it('de-duplicates recommendations from critical and warning findings only', () => {
    const critique = critiquePlan(
      makePlan([
        makeStep('a', { dependsOn: ['g1'], input: 'g1' }),
        makeStep('b', { dependsOn: ['g2'], input: 'g2' }),
        makeStep('d', { dependsOn: ['a', 'b'], input: 'only a' }),
      ]),
    );
    assert.deepEqual(critique.recommendations, ['Fix every error before starting: the run refuses a plan that has one.']);
    assert.ok(critique.issues.some((issue) => issue.severity === 'info'));
  });

  it('tells the user what each finding means and what to do about it', () => {
    const shown = (steps: Step[]): string[][] => critiquePlan(makePlan(steps)).issues.map((issue) => [issue.check, issue.message, issue.recommendation ?? '']);
    assert.deepEqual(shown([makeStep('a'), makeStep('b'), makeStep('c'), makeStep('lonely'), makeStep('d', { dependsOn: ['a', 'b', 'c'], input: 'x' })]), [
      [
        'missing_gate',
        'Level 0 has 4 parallel steps and no synthesis gate after them to combine their results.',
        'Add a synthesis_gate step that depends on the parallel steps to condense their results.',
      ],
      ['orphan_step', 'Nothing uses the result of step "lonely", and it is not among the steps that finish the plan.', 'Make a later step depend on it, or remove it.'],
      [
        'disconnected_flow',
        'Step "d" depends on a, b, c but its input refers to none of their results.',
        'Refer to dependency results in the step input ({{results.<id>}}), or drop dependencies the step does not need.',
      ],
    ]);
    assert.deepEqual(
      shown([
        makeStep('a', { input: 'Fetch the release notes' }),
        makeStep('w', { kind: 'tool', tool: 'write_file', args: {}, requiresApproval: false, onFailure: 'skip', dependsOn: ['a'] }),
      ]),
      [
        [
          'optimism_bias',
          'Step "a" depends on something outside the workspace (the network, a web search, another service\'s API) and is critical: if it fails, the whole run stops.',
          'Make steps that reach outside the workspace non-critical ("critical": false) when the plan can do without them, or give them onFailure "replan"; "retry" helps only with a short outage.',
        ],
        [
          'destructive_without_approval',
          'Step "w" asks to use write_file without approval, which a plan cannot do: the approval policy in the settings decides.',
          'Drop "requiresApproval": false from the step; the review shows whether it will ask.',
        ],
      ],
    );
    assert.deepEqual(
      shown([
        makeStep('a'),
        makeStep('b'),
        makeStep('c'),
        makeStep('d', { kind: 'synthesis_gate', dependsOn: ['a', 'b', 'c'] }),
        makeStep('e', { dependsOn: ['a', 'b', 'c', 'd'], input: 'use {{results.d}}' }),
      ]).map(([check, message]) => [check, message]),
      [['disconnected_flow', 'Step "e" does not refer to the results of a, b, c.']],
    );
  });

  it('recommends nothing for info findings, and says a plan cannot run only when something is critical', () => {
    const orphan = critiquePlan(makePlan([makeStep('a'), makeStep('lonely'), makeStep('b', { dependsOn: ['a'], input: 'a' })]));
    assert.deepEqual(orphan.issues.map((issue) => issue.severity), ['info']);
    assert.deepEqual(orphan.recommendations, []);
    const warned = critiquePlan(makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'], input: 'unrelated' })]));
    assert.equal(warned.summary, 'Score 9/10: 0 critical, 1 warning, 0 info.');
    const blocked = critiquePlan(makePlan([makeStep('a', { dependsOn: ['ghost'], input: 'ghost' }), makeStep('b', { dependsOn: ['a'], input: 'x' })]));
    assert.equal(blocked.summary, 'Score 3/10: 1 critical, 1 warning, 0 info. The plan cannot start until its errors are fixed.');
  });

  describe('mergeCritique', () => {
    it('adds new findings, drops duplicates and recomputes the score and recommendations', () => {
      const base = critiquePlan(makePlan(clean()));
      const finding: CritiqueIssue = {
        check: 'llm_review',
        name: 'Model review',
        severity: 'warning',
        stepId: 'b',
        message: 'B does not serve the objective.',
        recommendation: 'Remove B.',
      };
      const merged = mergeCritique(base, [
        finding,
        { ...finding },
        { check: 'llm_review', name: 'Model review', severity: 'critical', message: 'Nothing deploys.', recommendation: 'Add a deploy step.' },
      ]);
      assert.equal(merged.issues.length, 2);
      assert.equal(merged.score, 6);
      assert.deepEqual(merged.recommendations, ['Remove B.', 'Add a deploy step.']);
      assert.match(merged.summary, /1 critical, 1 warning/);
    });
  });

  describe('calibration', () => {
    const tools = createToolRegistry(builtinTools());
    const tool = (id: string, name: string, args: Record<string, unknown>, patch: Partial<Step> = {}) =>
      makeStep(id, { kind: 'tool', agent: undefined, input: undefined, tool: name, args, ...patch });

    it('shows every validation error against the run\'s tools, with its fix, and caps the score', () => {
      const critique = critiquePlan(makePlan([tool('S001', 'search_text', { pattern: 'TODO' })]), { tools });
      assert.deepEqual(
        critique.issues.map((issue) => [issue.check, issue.severity, issue.stepId, issue.blocking]),
        [['invalid_args', 'critical', 'S001', true]],
      );
      assert.match(critique.issues[0]!.message, /"search_text" takes: query \(required\), regex, caseSensitive, glob, maxMatches, contextLines/);
      assert.equal(critique.score, 3);
      assert.match(critique.summary, /cannot start until its errors are fixed/);
      assert.equal(critiquePlan(makePlan([tool('S001', 'search_text', { query: 'TODO' })]), { tools }).score, 10);
    });

    it('keeps the cap when a model review is merged', () => {
      const blocked = critiquePlan(makePlan([makeStep('a', { dependsOn: ['ghost'] })]));
      assert.equal(mergeCritique(blocked, [{ check: 'llm_review', name: 'Model review', severity: 'info', message: 'ok' }]).score, 3);
    });

    it('names findings in plain words and keeps the code', () => {
      const critique = critiquePlan(makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'], input: 'unrelated' }), makeStep('c', { dependsOn: ['c'] })]));
      assert.deepEqual(
        critique.issues.map((issue) => [issue.check, issue.name]),
        [
          ['self_dependency', 'Step waits for itself'],
          ['disconnected_flow', 'Dependency result not used'],
        ],
      );
      assert.equal(checkName('llm_review'), 'Model review');
      assert.equal(checkName('some_new_check'), 'some new check');
    });

    it('does not call an ordering dependency disconnected: read before write, write before run, a person\'s step', () => {
      const steps = [
        tool('read', 'read_file', { path: 'a.ts' }),
        makeStep('edit', { kind: 'manual', agent: undefined, input: 'Edit a.ts', dependsOn: ['read'] }),
        tool('write', 'write_file', { path: 'b.ts', content: '' }, { dependsOn: ['edit'] }),
        // allowFailure: the explanation of the failures runs when there are some (else `skipped_input`).
        tool('run', 'run_command', { argv: ['npm', 'test'], allowFailure: true }, { dependsOn: ['write'], onFailure: 'retry', maxAttempts: 2 }),
        makeStep('explain', { input: 'Explain the failures', dependsOn: ['run'] }),
      ];
      assert.deepEqual(checks(steps), []);
      // an agent that ignores what a read produced is still disconnected
      assert.deepEqual(checks([tool('read', 'read_file', { path: 'a.ts' }), makeStep('use', { input: 'Explain it', dependsOn: ['read'] })]), [
        ['disconnected_flow', 'warning', 'use'],
      ]);
    });

    it('judges a tool step\'s flakiness by its tool, a person\'s step never', () => {
      assert.deepEqual(checks([tool('s', 'search_text', { query: 'fetch' }, { input: 'Search for fetch calls' })]), []);
      assert.deepEqual(checks([makeStep('m', { kind: 'manual', agent: undefined, input: 'Download the release from the web' })]), []);
    });
  });
});

describe('critiqueVerdict', () => {
  it('leaves the score to the view that shows it beside the summary (the panel said it twice), and any other summary as it is', () => {
    const plan = makePlan([makeStep('a'), makeStep('lonely'), makeStep('b', { dependsOn: ['a'], input: 'a' })]);
    const critique = critiquePlan(plan);
    assert.match(critique.summary, /^Score \d+\/10: 0 critical/);
    assert.equal(critiqueVerdict(critique), critique.summary.replace(/^Score \d+\/10: /, ''));
    assert.equal(critiqueVerdict(critiquePlan(makePlan([makeStep('a')]))), 'No problems found in how the plan is built. The critic does not judge whether its steps do what you asked.');
    assert.equal(critiqueVerdict({ score: 7, summary: 'Score 8/10: other' }), 'Score 8/10: other');
  });
});
