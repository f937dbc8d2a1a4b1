import assert from 'node:assert/strict';
import { listFilesTool } from '../../../../src/core/tools/listFilesTool';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import type { Tool } from '../../../../src/core/tools/tool';
import { PanelSession } from '../../../../src/core/view/panelSession';
import type { ReviewView } from '../../../../src/shared/panelViewModel';
import { makePlan, makeStep } from '../../../support/randomPlans';

function review(session: PanelSession): ReviewView {
  const model = session.snapshot(0);
  assert.equal(model.mode, 'review');
  return model.review;
}

/** A tool another extension or an MCP server offers, under `name`, with `effects`. */
function contributed(name: string, effects: Tool['effects']): Tool {
  return { ...listFilesTool, name, description: `The ${name} tool`, effects };
}

describe('PanelSession: the tools the review checks against (setTools)', () => {
  const plan = makePlan([
    makeStep('A', { kind: 'tool', tool: 'read_file', args: { path: 'a.txt' }, agent: undefined }),
    makeStep('B', { kind: 'tool', tool: 'issues_search', args: {}, agent: undefined, dependsOn: ['A'] }),
  ]);

  it('a tool that arrives after the review was shown (an MCP server started) unblocks Start, and one that leaves blocks it again', () => {
    const session = new PanelSession('s', [readFileTool] as Tool[]);
    session.setPlan(plan);
    assert.match(review(session).startBlockedReason ?? '', /"issues_search", which is not available/);
    session.setTools([readFileTool, contributed('issues_search', 'read')] as Tool[]);
    assert.equal(review(session).startBlockedReason, undefined);
    session.setTools([readFileTool] as Tool[]);
    assert.match(review(session).startBlockedReason ?? '', /"issues_search", which is not available/);
  });

  it('a tool whose effects change (read → command) is judged again: the critique of the same plan version changes', () => {
    const session = new PanelSession('s', [readFileTool, contributed('issues_search', 'read')] as Tool[]);
    session.setPlan(plan);
    const asRead = review(session);
    session.setTools([readFileTool, contributed('issues_search', 'command')] as Tool[]);
    const asCommand = review(session);
    assert.notDeepEqual(asCommand.steps[1], asRead.steps[1], 'the step that now runs a command is shown as one');
    assert.equal(asCommand.planVersion, asRead.planVersion);
  });
});
