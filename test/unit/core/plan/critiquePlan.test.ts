import assert from 'node:assert/strict';
import { z } from 'zod';
import { checkName, critiquePlan, mergeCritique, type CritiqueIssue } from '../../../../src/core/plan/critiquePlan';
import type { Step } from '../../../../src/core/plan/planSchema';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import type { Tool, ToolEffect } from '../../../../src/core/tools/tool';
import { makePlan, makeStep } from '../../../support/randomPlans';

const checks = (steps: Step[]): [string, string, string | undefined][] =>
  critiquePlan(makePlan(steps)).issues.map((issue: CritiqueIssue) => [issue.check, issue.severity, issue.stepId]);

/** A chain a → b → c whose inputs refer to their dependency: a plan with no findings. */
const clean = (): Step[] => [makeStep('a'), makeStep('b', { dependsOn: ['a'], input: 'use {{results.a}}' }), makeStep('c', { dependsOn: ['b'], input: 'use $b' })];

describe('critiquePlan', () => {
  it('gives a clean plan 10 and no recommendations', () => {
    const critique = critiquePlan(makePlan(clean()));
    assert.deepEqual(critique, { score: 10, issues: [], summary: 'Score 10/10: no problems found.', recommendations: [] });
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

  it('flags missing_gate for 3 parallel steps with no later gate, and not with one', () => {
    const parallel = [makeStep('a'), makeStep('b'), makeStep('c')];
    const withoutGate = [...parallel, makeStep('d', { dependsOn: ['a', 'b', 'c'], input: 'a b c' })];
    const withGate = [...parallel, makeStep('d', { kind: 'synthesis_gate', dependsOn: ['a', 'b', 'c'] })];
    assert.deepEqual(checks(withoutGate), [['missing_gate', 'warning', 'a']]);
    assert.deepEqual(checks(withGate), []);
    assert.deepEqual(checks([makeStep('a'), makeStep('b'), makeStep('c', { dependsOn: ['a', 'b'], input: 'a b' })]), []);
  });

  it('flags optimism_bias for critical stop-on-failure steps that touch the network or commands', () => {
    for (const patch of [{ input: 'Fetch the release notes' }, { input: 'Search the docs' }, { input: 'Call the GitHub API' }, { input: 'GET http://x' }, { kind: 'tool' as const, tool: 'run_command', args: { argv: ['make'] } }]) {
      assert.deepEqual(checks([makeStep('a', patch)]), [['optimism_bias', 'warning', 'a']], JSON.stringify(patch));
    }
    assert.deepEqual(checks([makeStep('a', { input: 'Fetch the notes', onFailure: 'retry', maxAttempts: 3 })]), []);
    assert.deepEqual(checks([makeStep('a', { input: 'Fetch the notes', critical: false })]), []);
    // A change with its check: only the optimism check is under test here.
    assert.deepEqual(checks([makeStep('a', { input: 'Rename the variable', checks: [{ kind: 'command', argv: ['npm', 'test'] }] })]), []);
    assert.deepEqual(checks([makeStep('a', { title: 'Read the command line parser', input: 'Read src/cli.js' })]), []);
  });

  it('flags disconnected_flow: warning when no dependency is referenced, info when some are not', () => {
    assert.deepEqual(checks([makeStep('a'), makeStep('b', { dependsOn: ['a'], input: 'unrelated' })]), [['disconnected_flow', 'warning', 'b']]);
    assert.deepEqual(checks([makeStep('a'), makeStep('b'), makeStep('c', { dependsOn: ['a', 'b'], input: 'from {{results.a.x}}' })]), [['disconnected_flow', 'info', 'c']]);
  });

  it('counts {{results.<id>, $<id> and the id as a word, ignoring case, as references', () => {
    for (const input of ['{{results.Load}}', '$load', 'summarize LOAD output', 'use the load step']) {
      assert.deepEqual(checks([makeStep('load', { input: 'x' }), makeStep('b', { dependsOn: ['load'], input })]), [], input);
    }
    assert.deepEqual(checks([makeStep('a1', { input: 'x' }), makeStep('b', { dependsOn: ['a1'], input: 'see a10' })]).map(([check]) => check), ['disconnected_flow']);
  });

  it('does not count a reference to S10 as one to S1', () => {
    for (const input of ['{{results.S10}}', 'use $S10']) {
      const critique = critiquePlan(makePlan([makeStep('S1'), makeStep('S10'), makeStep('b', { dependsOn: ['S1', 'S10'], input })]));
      assert.deepEqual(critique.issues.map((issue) => [issue.check, issue.severity, issue.message]), [['disconnected_flow', 'info', 'Step "b" does not refer to the results of S1.']], input);
    }
  });

  it('looks for references in args too', () => {
    assert.deepEqual(checks([makeStep('a'), makeStep('b', { kind: 'tool', tool: 'read_file', args: { path: '$a' }, dependsOn: ['a'], input: undefined })]), []);
  });

  it('flags orphan_step outside the last level as info', () => {
    assert.deepEqual(checks([makeStep('a'), makeStep('lonely'), makeStep('b', { dependsOn: ['a'], input: 'a' })]), [['orphan_step', 'info', 'lonely']]);
  });

  it('flags destructive_without_approval', () => {
    for (const tool of ['write_file', 'edit_file', 'delete_file', 'run_command']) {
      const issues = checks([makeStep('a', { kind: 'tool', tool, args: {}, requiresApproval: false, onFailure: 'skip' })]);
      assert.deepEqual(issues, [['destructive_without_approval', 'warning', 'a']], tool);
    }
    assert.deepEqual(checks([makeStep('a', { kind: 'tool', tool: 'read_file', args: {}, requiresApproval: false })]), []);
  });

  it('judges a tool by the effect it declares: a change with approval off is flagged, whatever the tool is called', () => {
    const named = (name: string, effects: ToolEffect): Tool => ({ name, description: name, inputSchema: z.unknown(), effects, run: () => Promise.resolve(null) });
    const tools = createToolRegistry([named('scribble', 'write'), named('shred', 'delete'), named('write_file', 'read'), named('create_directory', 'write')]);
    const flagged = (tool: string): string[] =>
      critiquePlan(makePlan([makeStep('a', { kind: 'tool', tool, args: {}, requiresApproval: false, onFailure: 'skip' })]), { tools }).issues.filter((issue) => issue.check === 'destructive_without_approval').map((issue) => issue.stepId!);
    assert.deepEqual(flagged('scribble'), ['a']);
    assert.deepEqual(flagged('shred'), ['a']);
    assert.deepEqual(flagged('create_directory'), ['a']);
    assert.deepEqual(flagged('write_file'), []);
    assert.deepEqual(checks([makeStep('a', { kind: 'tool', tool: 'create_directory', args: {}, requiresApproval: false, onFailure: 'skip' })]), [['destructive_without_approval', 'warning', 'a']]);
  });

  describe('score', () => {
    it('is 10 − 3·critical − warning − 0.5·info', () => {
      // 1 critical (11 steps at once) + 1 warning (disconnected) → 10 − 3 − 1 = 6
      const wide = Array.from({ length: 11 }, (_, index) => makeStep(`p${index}`));
      const steps = [...wide, makeStep('gate', { kind: 'synthesis_gate', dependsOn: wide.map((step) => step.id) }), makeStep('z', { dependsOn: ['gate'], input: 'x' })];
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
    const critique = critiquePlan(makePlan([makeStep('a', { dependsOn: ['g1'], input: 'g1' }), makeStep('b', { dependsOn: ['g2'], input: 'g2' }), makeStep('d', { dependsOn: ['a', 'b'], input: 'only a' })]));
    assert.deepEqual(critique.recommendations, ['Fix every error before starting: the run refuses a plan that has one.']);
    assert.ok(critique.issues.some((issue) => issue.severity === 'info'));
  });

  it('tells the user what each finding means and what to do about it', () => {
    const shown = (steps: Step[]): string[][] => critiquePlan(makePlan(steps)).issues.map((issue) => [issue.check, issue.message, issue.recommendation ?? '']);
    assert.deepEqual(shown([makeStep('a'), makeStep('b'), makeStep('c'), makeStep('lonely'), makeStep('d', { dependsOn: ['a', 'b', 'c'], input: 'x' })]), [
      ['missing_gate', 'Level 0 has 4 parallel steps and no synthesis gate after it to combine their results.', 'Add a synthesis_gate step after wide parallel levels to condense their results.'],
      ['orphan_step', 'Nothing uses the result of step "lonely" and it is not part of the final level.', 'Make a later step depend on it, or remove it.'],
      ['disconnected_flow', 'Step "d" depends on a, b, c but its input refers to none of their results.', 'Refer to dependency results in the step input ({{results.<id>}}), or drop dependencies the step does not need.'],
    ]);
    assert.deepEqual(shown([makeStep('a', { input: 'Fetch the release notes' }), makeStep('w', { kind: 'tool', tool: 'write_file', args: {}, requiresApproval: false, onFailure: 'skip', dependsOn: ['a'] })]), [
      ['optimism_bias', 'Step "a" depends on something that can fail transiently (network, search, API, external command) but stops the run on its first failure.', 'Give steps that touch the network or external commands onFailure "retry" (with maxAttempts > 1) or "replan", or make them non-critical.'],
      ['destructive_without_approval', 'Step "w" asks to use write_file without approval, which a plan cannot do: the approval policy in the settings decides.', 'Drop "requiresApproval": false from the step; the review shows whether it will ask.'],
    ]);
    assert.deepEqual(shown([makeStep('a'), makeStep('b'), makeStep('c'), makeStep('d', { kind: 'synthesis_gate', dependsOn: ['a', 'b', 'c'] }), makeStep('e', { dependsOn: ['a', 'b', 'c', 'd'], input: 'use {{results.d}}' })]).map(([check, message]) => [check, message]), [
      ['disconnected_flow', 'Step "e" does not refer to the results of a, b, c.'],
    ]);
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
      const finding: CritiqueIssue = { check: 'llm_review', name: 'Model review', severity: 'warning', stepId: 'b', message: 'B does not serve the objective.', recommendation: 'Remove B.' };
      const merged = mergeCritique(base, [finding, { ...finding }, { check: 'llm_review', name: 'Model review', severity: 'critical', message: 'Nothing deploys.', recommendation: 'Add a deploy step.' }]);
      assert.equal(merged.issues.length, 2);
      assert.equal(merged.score, 6);
      assert.deepEqual(merged.recommendations, ['Remove B.', 'Add a deploy step.']);
      assert.match(merged.summary, /1 critical, 1 warning/);
    });
  });

  describe('calibration', () => {
    const tools = createToolRegistry(builtinTools());
    const tool = (id: string, name: string, args: Record<string, unknown>, patch: Partial<Step> = {}) => makeStep(id, { kind: 'tool', agent: undefined, input: undefined, tool: name, args, ...patch });

    it('shows every validation error against the run\'s tools, with its fix, and caps the score', () => {
      const critique = critiquePlan(makePlan([tool('S001', 'search_text', { pattern: 'TODO' })]), { tools });
      assert.deepEqual(critique.issues.map((issue) => [issue.check, issue.severity, issue.stepId, issue.blocking]), [['invalid_args', 'critical', 'S001', true]]);
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
      assert.deepEqual(critique.issues.map((issue) => [issue.check, issue.name]), [['self_dependency', 'Step waits for itself'], ['disconnected_flow', 'Dependency result not used']]);
      assert.equal(checkName('llm_review'), 'Model review');
      assert.equal(checkName('some_new_check'), 'some new check');
    });

    it('does not call an ordering dependency disconnected: read before write, write before run, a person\'s step', () => {
      const steps = [
        tool('read', 'read_file', { path: 'a.ts' }),
        makeStep('edit', { kind: 'manual', agent: undefined, input: 'Edit a.ts', dependsOn: ['read'] }),
        tool('write', 'write_file', { path: 'b.ts', content: '' }, { dependsOn: ['edit'] }),
        tool('run', 'run_command', { argv: ['npm', 'test'] }, { dependsOn: ['write'], onFailure: 'retry', maxAttempts: 2 }),
        makeStep('explain', { input: 'Explain the failures', dependsOn: ['run'] }),
      ];
      assert.deepEqual(checks(steps), []);
      // an agent that ignores what a read produced is still disconnected
      assert.deepEqual(checks([tool('read', 'read_file', { path: 'a.ts' }), makeStep('use', { input: 'Explain it', dependsOn: ['read'] })]), [['disconnected_flow', 'warning', 'use']]);
    });

    it('judges a tool step\'s flakiness by its tool, a person\'s step never', () => {
      assert.deepEqual(checks([tool('s', 'search_text', { query: 'fetch' }, { input: 'Search for fetch calls' })]), []);
      assert.deepEqual(checks([makeStep('m', { kind: 'manual', agent: undefined, input: 'Download the release from the web' })]), []);
    });
  });
});
