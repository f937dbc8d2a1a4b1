import assert from 'node:assert/strict';
import type { RunState, StepState } from '../../../../src/core/engine/runEvents';
import { initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import type { Plan } from '../../../../src/core/plan/planSchema';
import { markdownText, maxObjectiveChars, maxTitleChars, planMarkdown } from '../../../../src/core/view/planMarkdown';
import type { StepStatus } from '../../../../src/shared/vocabulary';
import { makePlan, makeStep } from '../../../support/randomPlans';

function runOf(plan: Plan, statuses: Record<string, StepStatus>, status: RunState['status'] = 'running'): RunState {
  const steps: Record<string, StepState> = {};
  for (const [id, stepStatus] of Object.entries(statuses)) steps[id] = { id, status: stepStatus, attempts: 1 };
  return { ...initialRunState('run-1'), plan, status, steps };
}

const plan = makePlan(
  [
    makeStep('read', { title: 'Read the code' }),
    makeStep('fix', { title: 'Fix the bug', dependsOn: ['read'], checks: [{ kind: 'command', argv: ['npm', 'test'] }, { kind: 'file_exists', path: 'src/a.ts' }] }),
    makeStep('notes', { title: 'Write release notes', kind: 'manual', dependsOn: ['read', 'fix'] }),
  ],
  { objective: 'Fix the login bug', version: 3 },
);

describe('planMarkdown', () => {
  it('lists the objective and every step unchecked, with who does it, what it waits for and its checks', () => {
    assert.equal(
      planMarkdown(plan),
      [
        '# Fix the login bug',
        '',
        '_Task Planner plan, version 3, 3 steps_',
        '',
        '- [ ] **read** Read the code (agent: default)',
        '- [ ] **fix** Fix the bug (agent: default)',
        '  - after read',
        '  - check: command npm test exits 0',
        '  - check: file exists src/a\\.ts',
        '- [ ] **notes** Write release notes (you)',
        '  - after read, fix',
        '',
      ].join('\n'),
    );
  });

  it('checks the steps the run completed and says the status of the others', () => {
    const text = planMarkdown(plan, runOf(plan, { read: 'completed', fix: 'failed', notes: 'awaiting_user' }, 'failed'));
    assert.match(text, /^_Task Planner plan, version 3, 3 steps · run failed_$/m);
    assert.match(text, /^- \[x\] \*\*read\*\* Read the code \(agent: default\)$/m);
    assert.match(text, /^- \[ \] \*\*fix\*\* Fix the bug \(agent: default\) — failed$/m);
    assert.match(text, /^- \[ \] \*\*notes\*\* Write release notes \(you\) — yours to do$/m);
  });

  it('marks a step left out of the plan as skipped, and a step the run has not reached by its status', () => {
    const skipping = makePlan([makeStep('a', { title: 'A', skipped: true }), makeStep('b', { title: 'B' })], { objective: '' });
    const text = planMarkdown(skipping);
    assert.match(text, /^# Plan$/m);
    assert.match(text, /^- \[ \] \*\*a\*\* A \(agent: default\) — skipped$/m);
    assert.match(text, /^- \[ \] \*\*b\*\* B \(agent: default\)$/m);
    assert.match(planMarkdown(skipping, runOf(skipping, { a: 'skipped' })), /^- \[ \] \*\*b\*\* B \(agent: default\)$/m, 'a step without state has no status');
    assert.match(planMarkdown(skipping, runOf(skipping, { b: 'pending' })), /— pending$/m);
    assert.match(makePlanText('1 step'), /1 step_/);
  });

  describe('a hostile title cannot add structure to the document', () => {
    const hostile = (title: string): string => {
      const line = planMarkdown(makePlan([makeStep('s', { title })])).split('\n')[4];
      assert.ok(line !== undefined);
      return line;
    };

    it('a link or an image stays text', () => {
      assert.equal(hostile('click [me](javascript:alert(1))'), '- [ ] **s** click \\[me\\]\\(javascript:alert\\(1\\)\\) (agent: default)');
      assert.equal(hostile('![x](https://evil.example/t.png)'), '- [ ] **s** `![x](https://evil.example/t.png)` (agent: default)');
      assert.equal(hostile('<https://evil.example>'), '- [ ] **s** `<https://evil.example>` (agent: default)');
    });

    it('a mention, an e-mail address, a bare URL or an issue reference neither pings nor links (GitHub links them after parsing)', () => {
      assert.equal(hostile('ask @octocat and @org/team'), '- [ ] **s** ask `@octocat` and `@org/team` (agent: default)');
      assert.equal(hostile('mail a@b.example'), '- [ ] **s** mail `a@b.example` (agent: default)');
      assert.equal(hostile('see www.evil.example or ftp://x.example'), '- [ ] **s** see `www.evil.example` or `ftp://x.example` (agent: default)');
      assert.equal(hostile('fixes #12, org/repo#3 and GH-4'), '- [ ] **s** fixes `#12,` `org/repo#3` and `GH-4` (agent: default)');
      assert.equal(hostile('C# and #hash stay'), '- [ ] **s** C\\# and \\#hash stay (agent: default)');
    });

    it('a backtick cannot close the code span early', () => {
      assert.equal(hostile('@a`b``c'), '- [ ] **s** ```@a`b``c``` (agent: default)');
      assert.equal(hostile('`@a`'), '- [ ] **s** `` `@a` `` (agent: default)');
    });

    it('HTML and entities stay text', () => {
      assert.equal(hostile('<script>alert(1)</script>'), '- [ ] **s** \\<script\\>alert\\(1\\)\\</script\\> (agent: default)');
      assert.equal(hostile('&#x202E; &lt;'), '- [ ] **s** \\&\\#x202E; \\&lt; (agent: default)');
    });

    it('a newline cannot start a heading, a list item or a task; every title is one line', () => {
      const text = planMarkdown(makePlan([makeStep('s', { title: 'ok\n# Heading\n- [x] forged\r\nrest\u2028more' })]));
      assert.equal(text.split('\n').length, 6);
      assert.match(text, /^- \[ \] \*\*s\*\* ok \\# Heading - \\\[x\\\] forged rest more \(agent: default\)$/m);
      assert.doesNotMatch(text, /^# Heading/m);
    });

    it('emphasis, code, tables, strikethrough, math and backslashes stay text', () => {
      assert.equal(hostile('*a* _b_ `c` |d| ~~e~~ $f$ \\g'), '- [ ] **s** \\*a\\* \\_b\\_ \\`c\\` \\|d\\| \\~\\~e\\~\\~ \\$f\\$ \\\\g (agent: default)');
    });

    it('a direction override or another control is shown as its escape', () => {
      assert.equal(hostile('evil\u202Etxt.exe\u0007\u0000'), '- [ ] **s** evil\\\\u202etxt\\.exe\\\\u0007\\\\u0000 (agent: default)');
      assert.equal(markdownText('a\u2066b\u200fc\u0085d', 100), 'a\\\\u2066b\\\\u200fc d');
    });

    it('an id, a dependency and a check cannot either', () => {
      const text = planMarkdown(makePlan([makeStep('a](x)'), makeStep('b', { dependsOn: ['a](x)'], checks: [{ kind: 'file_exists', path: '<img src=x>' }] })]));
      assert.match(text, /^- \[ \] \*\*a\\\]\\\(x\\\)\*\* Step a\\\]\\\(x\\\) /m);
      assert.match(text, /^ {2}- after a\\\]\\\(x\\\)$/m);
      assert.match(text, /^ {2}- check: file exists \\<img src=x\\>$/m);
    });

    it('a huge objective or title is cut, visibly', () => {
      const text = planMarkdown(makePlan([makeStep('s', { title: 't'.repeat(1_000_000) })], { objective: 'o'.repeat(1_000_000) }));
      assert.ok(text.length < maxObjectiveChars + maxTitleChars * 3 + 200);
      assert.match(text, /^# o+… \\\(998\d+ more characters cut\\\)$/m);
      assert.match(text, /^- \[ \] \*\*s\*\* t+… \\\(999\d+ more characters cut\\\) \(agent: default\)$/m);
    });
  });
});

function makePlanText(objective: string): string {
  return planMarkdown(makePlan([makeStep('only')], { objective }));
}

describe('markdownText: long words in linear time (ReDoS)', () => {
  it('escapes a 4,000-character word with no link in it (2,000 took 24 s before) as itself, and still quotes a URL', () => {
    const word = 'a'.repeat(2 * maxObjectiveChars);
    assert.equal(markdownText(word, word.length), word);
    assert.equal(markdownText(`see h${'1'.repeat(maxObjectiveChars - 20)}://x now`, maxObjectiveChars), `see \`h${'1'.repeat(maxObjectiveChars - 20)}://x\` now`);
  });
});
