import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeCheck } from '../../../../src/core/plan/describeCheck';
import type { Step } from '../../../../src/core/plan/planSchema';
import { heuristicPlan } from '../../../../src/core/planner/heuristicPlan';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';

/**
 * Ordinary requests a newcomer types; `expect` (for some) is each step's tool, or "manual";
 * `checks` (for some) is each step's checks in words, "" for none; `shape` (for some) is each
 * step as `describeStep` words it without a model, `modelShape` with one, planned with the
 * project's `testCommand` when one is given.
 */
const corpus = JSON.parse(readFileSync(join(__dirname, '../../../fixtures/planner/requests.json'), 'utf8')) as {
  request: string;
  expect?: string[];
  checks?: string[];
  shape?: string[];
  modelShape?: string[];
  testCommand?: string[];
}[];
const registry = createToolRegistry(builtinTools());
const englishWords = new Set(['on', 'it', 'the', 'with', 'suite', 'a', 'an', 'for', 'and', 'to', 'of', 'coverage', 'package', 'everything', 'them']);

/**
 * A step in words: its tool (with the command line and folder, or the path, glob or query),
 * kind or agent; "after" the steps it waits for; "(output to the fix)" for a command whose
 * output a fix reads; "check `…`" for each command it is checked with.
 */
function describeStep(step: Step): string {
  const words: string[] = [step.kind === 'tool' ? step.tool! : step.kind === 'agent' ? `agent ${step.agent!}` : step.kind];
  const args = step.args ?? {};
  if (step.tool === 'run_command') words.push(`\`${(args['argv'] as string[]).join(' ')}\`${typeof args['cwd'] === 'string' ? ` in ${args['cwd']}` : ''}`);
  else if (step.kind === 'tool') words.push(String(args['path'] ?? args['glob'] ?? args['query'] ?? ''));
  if (step.dependsOn.length > 0) words.push(`after ${step.dependsOn.join(',')}`);
  if (args['allowFailure'] === true) words.push('(output to the fix)');
  for (const check of step.checks ?? []) if (check.kind === 'command') words.push(`check \`${check.argv.join(' ')}\`${check.cwd ? ` in ${check.cwd}` : ''}`);
  return words.join(' ');
}

const planOf = (entry: (typeof corpus)[number], model = false) =>
  heuristicPlan(entry.request, { model, ...(entry.testCommand ? { testCommand: entry.testCommand } : {}) });

describe('heuristicPlan over a corpus of ordinary requests', () => {
  it('has at least 100 varied requests, some labelled', () => {
    assert.ok(corpus.length >= 100, `only ${corpus.length} requests`);
    assert.equal(new Set(corpus.map((entry) => entry.request)).size, corpus.length, 'a request is listed twice');
    assert.ok(corpus.filter((entry) => entry.expect).length >= 40);
  });

  it('plans every request into a plan the built-in tools accept, without a model and with one', () => {
    const problems = corpus.flatMap(({ request }) =>
      [false, true].flatMap((model) =>
        validatePlan(heuristicPlan(request, { model }), { tools: registry }).map((diagnostic) => `${JSON.stringify(request)} (model: ${model}): ${diagnostic.message}`),
      ),
    );
    assert.deepEqual(problems, []);
  });

  it('without a model, every step is a tool call, a question for you or yours to do', () => {
    const others = corpus.flatMap((entry) =>
      planOf(entry).steps.filter((step) => !['tool', 'manual', 'clarification'].includes(step.kind)).map((step) => `${entry.request}: ${step.id} ${step.kind}`),
    );
    assert.deepEqual(others, []);
  });

  it('picks the expected tool for each step of the labelled requests', () => {
    const wrong = corpus.flatMap(({ request, expect }) => {
      if (!expect) return [];
      const got = heuristicPlan(request).steps.map((step) => (step.kind === 'tool' ? step.tool! : step.kind));
      return JSON.stringify(got) === JSON.stringify(expect) ? [] : [`${JSON.stringify(request)}: expected ${expect.join(', ')}, got ${got.join(', ')}`];
    });
    assert.deepEqual(wrong, []);
  });

  it('adds the expected checks to each step of the labelled requests, with a model and without', () => {
    assert.ok(corpus.filter((entry) => entry.checks).length >= 20);
    const wrong = corpus.flatMap(({ request, checks }) =>
      !checks
        ? []
        : [false, true].flatMap((model) => {
            const got = heuristicPlan(request, { model }).steps.map((step) => (step.checks ?? []).map(describeCheck).join('; '));
            return JSON.stringify(got) === JSON.stringify(checks) ? [] : [`${JSON.stringify(request)} (model: ${model}): expected ${JSON.stringify(checks)}, got ${JSON.stringify(got)}`];
          }),
    );
    assert.deepEqual(wrong, []);
  });

  it('checks every file a tool step writes (with the text it was given) or deletes, and adds no check to other tool steps', () => {
    const wrong = corpus.flatMap(({ request }) =>
      heuristicPlan(request).steps.flatMap((step) => {
        if (step.kind !== 'tool') return [];
        const path = step.args?.['path'];
        const given = String(step.args?.['content'] ?? '').trim();
        const written = given === '' ? { kind: 'file_exists', path } : { kind: 'file_contains', path, text: given };
        const expected = step.tool === 'write_file' ? [written] : step.tool === 'delete_file' ? [{ kind: 'file_absent', path }] : undefined;
        return JSON.stringify(step.checks) === JSON.stringify(expected)
          ? []
          : [`${JSON.stringify(request)} ${step.id} ${step.tool!}: ${JSON.stringify(step.checks)}`];
      }),
    );
    assert.deepEqual(wrong, []);
  });

  it('plans the shaped requests into the steps, command lines, order and questions they ask for, without a model and with one (issue 29)', () => {
    const shaped = corpus.filter((entry) => entry.shape);
    assert.ok(shaped.length >= 60, `only ${shaped.length} shaped requests`);
    const wrong = shaped.flatMap((entry) =>
      ([[false, entry.shape], [true, entry.modelShape]] as const).flatMap(([model, expected]) => {
        if (!expected) return [];
        const got = planOf(entry, model).steps.map(describeStep);
        return JSON.stringify(got) === JSON.stringify(expected)
          ? []
          : [`${JSON.stringify(entry.request)} (model: ${model}): expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`];
      }),
    );
    assert.deepEqual(wrong, []);
  });

  it('asks every question that does not refer back before any work, and the work after it in the request waits for the answer', () => {
    const wrong = corpus.flatMap((entry) =>
      [false, true].flatMap((model) => {
        const { steps } = planOf(entry, model);
        const first = steps.findIndex((step) => step.kind !== 'clarification' || step.dependsOn.length > 0);
        const late = steps.slice(first < 0 ? steps.length : first).filter((step) => step.kind === 'clarification' && step.dependsOn.length === 0);
        return late.map((step) => `${JSON.stringify(entry.request)} (model: ${model}): ${step.id} is asked after work`);
      }),
    );
    assert.deepEqual(wrong, []);
  });

  it('never makes a command line of English words', () => {
    const wrong = corpus.flatMap((entry) =>
      [false, true].flatMap((model) =>
        planOf(entry, model).steps.flatMap((step) => {
          const argv = step.tool === 'run_command' ? (step.args?.['argv'] as string[]) : [];
          return argv.some((word) => englishWords.has(word.toLowerCase())) ? [`${JSON.stringify(entry.request)}: ${JSON.stringify(argv)}`] : [];
        }),
      ),
    );
    assert.deepEqual(wrong, []);
  });

  it('lets every fix read a command that returns its output rather than fail, so the fix is never skipped for a red command', () => {
    let fixes = 0;
    const wrong = corpus.flatMap((entry) =>
      [false, true].flatMap((model) => {
        const { steps } = planOf(entry, model);
        return steps.flatMap((step) => {
          const read = /\{\{results\.(S\d+)\.stdout\}\}/.exec(step.input ?? '')?.[1];
          if (read === undefined) return [];
          fixes++;
          const command = steps.find((other) => other.id === read);
          const rerun = step.checks?.some((check) => check.kind === 'command' && JSON.stringify(check.argv) === JSON.stringify(command?.args?.['argv']));
          return command?.args?.['allowFailure'] === true && step.dependsOn.includes(read) && rerun === true
            ? []
            : [`${JSON.stringify(entry.request)}: ${step.id}`];
        });
      }),
    );
    assert.ok(fixes >= 20, `only ${fixes} fixes`);
    assert.deepEqual(wrong, []);
  });
});
