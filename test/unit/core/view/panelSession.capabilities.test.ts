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

  it("edits a step's skills from the form: names the catalogue's skills, refuses one it lacks, and an emptied list removes them", () => {
    const session = new PanelSession('s', [readFileTool] as Tool[]);
    session.setPlan(makePlan([makeStep('S1', { input: 'Ship it' }), makeStep('S2', { input: 'Tidy', skills: ['release'] })]));
    session.setCapabilities({ ...catalogue, skills: [catalogue.skills[0]!, { ...catalogue.skills[0]!, name: 'docs' }, { ...catalogue.skills[0]!, name: 'release', workspaceFolder: 'web' }] });
    assert.deepEqual(review(session).skills, ['docs', 'release'], 'sorted, each name once (two folders may have the same skill)');
    assert.deepEqual(review(session).steps[1]?.skills, ['release']);
    assert.equal(review(session).steps[0]?.skills, undefined);
    const refused = session.applyEdit({ type: 'updateStep', stepId: 'S1', patch: { skills: ['release', 'deploy'] } });
    assert.deepEqual(refused, {
      ok: false,
      error: 'The edit was refused because it would break the plan: Step "S1" uses the skill "deploy", which is not in the catalogue; available: docs, release.',
    });
    assert.equal(session.applyEdit({ type: 'updateStep', stepId: 'S1', patch: { skills: ['docs', 'release', 'docs'] } }).ok, true);
    assert.deepEqual(review(session).steps[0]?.skills, ['docs', 'release'], 'each name once, in the order given');
    assert.equal(session.applyEdit({ type: 'updateStep', stepId: 'S2', patch: { skills: [] } }).ok, true);
    assert.equal(review(session).steps[1]?.skills, undefined, 'an emptied list removes the skills');
    const added = session.applyEdit({ type: 'addStep', step: { id: 'S3', kind: 'agent', title: 'New', input: 'x', skills: [] } });
    assert.ok(added.ok && !('skills' in added.plan.steps[2]!), 'a new step without skills names none');
    assert.equal(review(session).skills?.length, 2);
  });

  it('before the catalogue is read, the review names no skills and the form refuses none', () => {
    const session = new PanelSession('s', [readFileTool] as Tool[]);
    session.setPlan(makePlan([makeStep('S1', { input: 'Ship it' })]));
    assert.equal(review(session).skills, undefined);
    assert.equal(session.applyEdit({ type: 'updateStep', stepId: 'S1', patch: { skills: ['anything'] } }).ok, true);
  });

  it("shows the plan's topics and the workspace's skill tags, and a topic set in the panel gives every agent step the skills tagged with it", () => {
    const session = new PanelSession('s', [readFileTool] as Tool[]);
    session.setPlan(makePlan([makeStep('S1', { input: 'Ship it' })]));
    assert.deepEqual([review(session).contextTags, review(session).skillTags], [[], undefined]);
    session.setCapabilities({ ...catalogue, skills: [catalogue.skills[0]!, { ...catalogue.skills[0]!, name: 'tests', tags: ['testing', 'docs'] }] });
    assert.deepEqual(review(session).skillTags, ['docs', 'testing'], 'sorted, each tag once');
    assert.equal(session.applyEdit({ type: 'setContextTags', tags: ['testing'] }).ok, true);
    assert.deepEqual(review(session).contextTags, ['testing']);
    assert.match(review(session).steps[0]?.uses ?? '', /Skills: tests$/);
    assert.equal(review(session).versions[0]?.label.includes('changed the topics'), true);
  });
});
