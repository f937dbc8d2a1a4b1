import assert from 'node:assert/strict';
import type { CapabilityCatalogue } from '../../../../src/core/capabilities/capabilityCatalogue';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import type { Tool } from '../../../../src/core/tools/tool';
import { PanelSession } from '../../../../src/core/view/panelSession';
import type { ReviewView } from '../../../../src/shared/panelViewModel';
import { makePlan, makeStep } from '../../../support/randomPlans';

const catalogue: CapabilityCatalogue = {
  instructions: [
    { kind: 'agents', path: 'AGENTS.md', directory: '', applyTo: [], text: 'x', bytes: 1 },
    { kind: 'scoped', path: '.github/instructions/ts\u202e.instructions.md', directory: '', applyTo: ['**/*.ts'], text: 'x', bytes: 1 },
  ],
  skills: [{ name: 'release', description: 'd', tags: ['docs'], source: '.github/skills/release/SKILL.md', text: 'x', bytes: 1 }],
  diagnostics: [],
};

function review(session: PanelSession): ReviewView {
  const model = session.snapshot(0);
  assert.equal(model.mode, 'review');
  return model.review;
}

describe('PanelSession: the instructions and skills each step will use', () => {
  const plan = makePlan(
    [
      makeStep('S1', { input: 'Change src/a.ts', skills: ['release', 'missing\u001b[31m'] }),
      makeStep('S2', { input: 'Summarise the README' }),
      makeStep('S3', { kind: 'tool', tool: 'read_file', args: { path: 'src/a.ts' } }),
    ],
    { contextTags: ['docs'] },
  );

  it('shows per agent step the instructions and skills it gets, with controls escaped, and flags an unknown skill', () => {
    const session = new PanelSession('s', [readFileTool] as Tool[]);
    session.setPlan(plan);
    session.setCapabilities(catalogue);
    const view = review(session);
    assert.equal(view.steps[0]?.uses, 'Instructions: AGENTS.md, .github/instructions/ts\\u202e.instructions.md · Skills: release · Missing skills: missing\\u001b[31m');
    assert.equal(view.steps[1]?.uses, 'Instructions: AGENTS.md · Skills: release');
    assert.equal(view.steps[2]?.uses, undefined);
    assert.match(view.steps[0]?.problems.join('\n') ?? '', /^Error: Step "S1" uses the skill "missing\\u001b\[31m", which is not in the catalogue; available: release\.$/);
    assert.match(view.startBlockedReason ?? '', /Fix the error first/);
  });

  it('shows and checks nothing of skills before the catalogue is read, and analyses again once it is', () => {
    const session = new PanelSession('s', [readFileTool] as Tool[]);
    session.setPlan(plan);
    assert.equal(review(session).steps[0]?.uses, undefined);
    assert.deepEqual(review(session).steps[0]?.problems, []);
    session.setCapabilities({ instructions: [], skills: [{ ...catalogue.skills[0]!, name: 'missing\u001b[31m' }], diagnostics: [] });
    assert.equal(review(session).steps[0]?.uses, 'Skills: missing\\u001b[31m · Missing skills: release');
    assert.match(review(session).steps[0]?.problems[0] ?? '', /uses the skill "release"/);
  });
});
