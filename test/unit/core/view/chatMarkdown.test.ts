import assert from 'node:assert/strict';
import type { RunEvent, RunState, StepState } from '../../../../src/core/engine/runEvents';
import { initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import type { Critique } from '../../../../src/core/plan/critiquePlan';
import {
  chatAnswerMarkdown,
  chatEventMarkdown,
  chatLimits,
  chatPlanMarkdown,
  chatStepLine,
  chatSummaryMarkdown,
  chatText,
} from '../../../../src/core/view/chatMarkdown';
import { runSummary } from '../../../../src/core/view/runSummary';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** The ASCII punctuation that means something to a chat's Markdown (links, images, HTML, emphasis, code, lists, headings, autolinks). */
const punctuation = /[!#$&()*+\-./:<=>@[\\\]^_`|~]/;

/** `markdown` with every escaped pair removed: what is left must hold no Markdown syntax from the input. */
function unescaped(markdown: string): string {
  return markdown.replace(/\\[!-/:-@[-`{-~]/g, '');
}

const hostileTitles = [
  '[click me](command:workbench.action.terminal.new?%5B%22rm%22%5D)',
  '![img](https://evil.example/track.png)',
  '<img src=x onerror=alert(1)>',
  '<a href="command:taskPlanner.approve">Approve</a>',
  'visit https://evil.example/phish or www.evil.example or mail root@evil.example',
  '[ref]: https://evil.example "title"',
  '`code` **bold** _em_ ~~strike~~ $math$ &amp; &#x3C;',
  '# heading\n- list\n1. ordered\n===\n> quote',
  'right\u202eto left\u0007bell\u0000nul',
  '\\[escaped\\](still) and \\<b\\>',
];

const critique: Critique = { score: 8, summary: 'Looks [fine](https://evil.example).', findings: [] } as unknown as Critique;

describe('chatMarkdown', () => {
  describe('chatText', () => {
    it('shows plain words as they are', () => {
      assert.equal(chatText('Write the notes', 100), 'Write the notes');
    });

    for (const title of hostileTitles) {
      it(`leaves no Markdown, link, HTML or control character of ${JSON.stringify(title.slice(0, 40))}`, () => {
        const text = chatText(title, 1_000);
        const bare = unescaped(text);
        assert.ok(!punctuation.test(bare.replace(/\\u[0-9a-f]{4}/g, '')), `unescaped punctuation left in ${JSON.stringify(text)}`);
        assert.ok(!/[\n\r\u0000-\u001f\u202e]/.test(text), `a line break or control character in ${JSON.stringify(text)}`);
        assert.ok(!/https?:\/\//.test(text) && !/www\./.test(text) && !/\w@\w/.test(text), `a bare address in ${JSON.stringify(text)}`);
      });
    }

    it('shows controls and direction controls as their escapes and joins lines', () => {
      assert.equal(chatText('a\nb\u202ec\u0007', 100), 'a b\\\\u202ec\\\\u0007');
    });

    it('cuts a long text to its limit, visibly, before escaping', () => {
      const text = chatText('x'.repeat(5_000), 100);
      assert.ok(text.startsWith('x'.repeat(50)));
      assert.match(text, /more characters cut\\\)$/);
      assert.ok(text.length <= 110, `${text.length} characters`);
    });

    // Linear time is proved statically (ESLint's regexp rules); a super-linear pattern would exceed the test's time-out here.
    it('cuts and escapes a huge hostile text', () => {
      const shown = chatText('[a](b)<c>'.repeat(500_000), chatLimits.title);
      assert.ok(shown.startsWith('\\[a\\]\\(b\\)\\<c\\>'.repeat(18)), shown.slice(0, 80));
      assert.ok(shown.endsWith('… \\(4499831 more characters cut\\)'), shown.slice(-80));
    });
  });

  it('chatStepLine: an ordered-list item with the title, the id and who does it', () => {
    assert.equal(chatStepLine(makeStep('W1', { title: 'Write notes.txt', kind: 'tool', tool: 'write_file' }), 0), '1. Write notes\\.txt (W1) — _write\\_file_\n');
    assert.equal(chatStepLine({ id: 'x', title: 'Draft' }, 4), '5. Draft (x)\n');
  });

  it('chatStepLine: a hostile id cannot close the parenthesis into a link', () => {
    const line = chatStepLine({ id: 'a)[x](command:evil', title: 't' }, 0);
    assert.equal(line, '1. t (a\\)\\[x\\]\\(command\\:evil)\n');
  });

  it('chatPlanMarkdown: the objective with the step count, the steps, the critic', () => {
    const plan = makePlan([makeStep('a', { title: 'Read' }), makeStep('b', { title: 'Write', kind: 'manual' })], { objective: 'Do <it>' });
    assert.equal(
      chatPlanMarkdown(plan, critique),
      '**Do \\<it\\>** (2 steps)\n\n1. Read (a) — _agent\\: default_\n2. Write (b) — _you_\n\nCritic: Looks \\[fine\\]\\(https\\:\\/\\/evil\\.example\\)\\.\n',
    );
    assert.equal(chatPlanMarkdown(plan, undefined, false), '**Do \\<it\\>** (2 steps)\n\n');
    assert.equal(chatPlanMarkdown(plan, critique, false), '**Do \\<it\\>** (2 steps)\n\nCritic: Looks \\[fine\\]\\(https\\:\\/\\/evil\\.example\\)\\.\n');
    assert.match(chatPlanMarkdown(makePlan([makeStep('a')])), /\(1 step\)/);
  });

  it('chatPlanMarkdown: lists at most chatLimits.steps steps and counts the rest', () => {
    const plan = makePlan(Array.from({ length: chatLimits.steps + 3 }, (_, index) => makeStep(`s${index}`)));
    const text = chatPlanMarkdown(plan);
    assert.equal(text.split('\n').filter((line) => /^\d+\. /.test(line)).length, chatLimits.steps);
    assert.match(text, /…and 3 more steps\.\n$/);
  });

  describe('chatEventMarkdown', () => {
    const titleOf = (id: string): string => ({ W1: 'Write [x](y)' })[id] ?? id;
    const base = { runId: 'r', seq: 1, time: 0 };
    const line = (event: Record<string, unknown>) => chatEventMarkdown({ ...base, ...event } as unknown as RunEvent, titleOf);

    it('says a step completed, failed, was skipped, waits, or is being repaired; escapes every text', () => {
      assert.equal(line({ type: 'step_completed', stepId: 'W1', result: 1 }), '- ✓ Write \\[x\\]\\(y\\)\n');
      assert.equal(line({ type: 'step_failed', stepId: 'W1', attempt: 2, error: 'bad <b>', disposition: 'stop' }), '- ✗ Write \\[x\\]\\(y\\) (attempt 2): bad \\<b\\>\n');
      assert.equal(line({ type: 'step_skipped', stepId: 'Z', reason: 'its dependency failed' }), '- ↷ Z skipped: its dependency failed\n');
      assert.equal(line({ type: 'replan_started', stepId: 'Z', reason: 'no file' }), '- ↻ Z failed; a repair plan is being made: no file\n');
      assert.equal(line({ type: 'replan_failed', stepId: 'Z', reason: 'No repair plan could be made: <b>x</b>' }), '- ✗ Z: No repair plan could be made\\: \\<b\\>x\\<\\/b\\>\n');
    });

    for (const [type, kind, words] of [
      ['approval_requested', 'approval', "your approval: Approve or Reject it in the editor's diff or dialog (the Plan view's step reopens it)"],
      ['clarification_requested', 'clarification', "your answer: answer the question the editor asks (the Plan view's step reopens it)"],
      ['review_requested', 'review', "your review: answer it in the editor (the notification, or the Plan view's step)"],
      ['manual_requested', 'manual', 'you: do it yourself, then mark it Done or Failed (the Plan view, the plan panel or the status bar)'],
      ['budget_exhausted', 'budget', "your decision on the model budget: answer it in the editor's notification"],
    ] as const) {
      it(`says what a ${type} waits for, and where in the editor it is given`, () => {
        assert.equal(
          line({ type, stepId: 'W1', request: { kind }, usage: {} }),
          `- ‖ Write \\[x\\]\\(y\\) waits for ${words}.\n`,
        );
      });
    }

    it('leaves other events to the progress line and the summary', () => {
      assert.equal(line({ type: 'step_started', stepId: 'W1', attempt: 1 }), undefined);
      assert.equal(line({ type: 'run_completed' }), undefined);
    });
  });

  it('chatSummaryMarkdown: ends with the files tools kept from the model', () => {
    const state: RunState = { ...initialRunState('run-1'), plan: makePlan([makeStep('a')]), status: 'completed', steps: { a: { id: 'a', status: 'completed', attempts: 1, result: 'ok' } }, withheldFiles: ['.env'] };
    assert.match(chatSummaryMarkdown(runSummary(state)), /\n\nKept from the model\\: \\\.env \\\(a credentials file\\\)\n$/);
  });

  it('chatSummaryMarkdown: the headline, each step, the failures, escaped', () => {
    const plan = makePlan([makeStep('a', { title: 'Read <it>' }), makeStep('b', { title: 'Fix [it](x)' })], { objective: 'Fix it' });
    const steps: Record<string, StepState> = {
      a: { id: 'a', status: 'completed', attempts: 1, result: 'text with [link](https://evil.example)' },
      b: { id: 'b', status: 'failed', attempts: 1, error: 'broke <img src=x>' },
    };
    const state: RunState = { ...initialRunState('run-1'), plan, status: 'failed', steps, startedAt: 0, endedAt: 1_500, reason: 'step b failed' };
    const text = chatSummaryMarkdown(runSummary(state));
    assert.equal(
      text,
      [
        '**Fix it**: failed in 1\\.5 s\\: 1 of 2 steps completed, 1 failed\\.',
        '',
        'step b failed',
        '',
        '- ✓ Read \\<it\\> — text with \\[link\\]\\(https\\:\\/\\/evil\\.example\\)',
        '- ✗ Fix \\[it\\]\\(x\\) — failed\\: broke \\<img src\\=x\\>',
        '',
        '**Fix \\[it\\]\\(x\\)** failed: broke \\<img src\\=x\\>',
        '',
      ].join('\n'),
    );
  });

  it('chatSummaryMarkdown: a command\'s last line of output is escaped like any text (hostile output cannot add a command link)', () => {
    const plan = makePlan([makeStep('c', { title: 'Run tests' })], { objective: 'Test' });
    for (const hostile of hostileTitles) {
      const steps: Record<string, StepState> = { c: { id: 'c', status: 'completed', attempts: 1, result: { exitCode: 0, stdout: `ok\n${hostile.replace(/\n/g, ' ')}\n` } } };
      const state: RunState = { ...initialRunState('run-3'), plan, status: 'completed', steps, startedAt: 0, endedAt: 1_000 };
      const text = chatSummaryMarkdown(runSummary(state));
      assert.match(text, /- ✓ Run tests — exit code 0, last output\\: /);
      const line = text.split('\n').find((candidate) => candidate.startsWith('- ✓')) ?? '';
      const output = line.slice(line.indexOf('last output\\: ') + 'last output\\: '.length);
      assert.ok(output.length > 0, hostile);
      assert.doesNotMatch(unescaped(output), punctuation, hostile);
    }
  });

  it('chatSummaryMarkdown: a step not finished shows its status; past summaryLimits.steps the rest are counted', () => {
    const steps = Array.from({ length: 103 }, (_, index) => makeStep(`s${index}`, { title: `Step ${index}` }));
    const state: RunState = { ...initialRunState('run-2'), plan: makePlan(steps, { objective: 'Many' }), status: 'running', steps: {}, startedAt: 0 };
    const text = chatSummaryMarkdown(runSummary(state, { now: 2_000 }));
    assert.match(text, /^\*\*Many\*\*: running in 2\\\.0 s\\: 0 of 103 steps completed\\\.\n\n- · Step 0 — pending\n/);
    assert.match(text, /- · Step 99 — pending\n- …and 3 more steps\n$/);
    assert.ok(!text.includes('Step 100'));
  });

  it('chatAnswerMarkdown: keeps the lines of a model answer, escapes each, bounds the whole', () => {
    assert.equal(chatAnswerMarkdown('Step 3 reads the file.\n\n[Click](command:x)\n'), 'Step 3 reads the file\\.  \n  \n\\[Click\\]\\(command\\:x\\)\n');
    const long = chatAnswerMarkdown('y'.repeat(chatLimits.answer * 3));
    assert.ok(long.length < chatLimits.answer + 60);
    assert.match(long, /more characters cut\\\)\n$/);
  });
});
