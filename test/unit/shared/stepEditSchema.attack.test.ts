import assert from 'node:assert/strict';
import { readFileTool } from '../../../src/core/tools/readFileTool';
import { writeFileTool } from '../../../src/core/tools/writeFileTool';
import type { Tool } from '../../../src/core/tools/tool';
import { PanelSession } from '../../../src/core/view/panelSession';
import { parseWebviewMessage } from '../../../src/shared/panelProtocol';
import { maxArgumentsDepth } from '../../../src/shared/stepEditSchema';
import { makePlan, makeStep } from '../../support/randomPlans';

/** `leaf` wrapped in `depth` objects: `{ a: { a: … leaf } }`. */
function nested(depth: number, leaf: unknown = 'x'): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

const shown = { id: 'plan-test', version: 1 };

describe('attack: a hostile panel page sends tool arguments and checks no form could hold', () => {
  it('attack: arguments nested a thousand deep are refused on arrival (accepted, they broke every later snapshot: the panel showed nothing again)', () => {
    const session = new PanelSession('s', [readFileTool] as Tool[]);
    session.setPlan(makePlan([makeStep('A', { input: 'x' })]));
    for (const edit of [
      { type: 'addStep', step: { id: 'W', kind: 'manual', title: 'w', args: { x: nested(1_000) } } },
      { type: 'addStep', step: { id: 'W', kind: 'tool', title: 'w', tool: 'read_file', args: { path: 'a.txt', x: nested(1_000) } } },
      { type: 'updateStep', stepId: 'A', patch: { kind: 'tool', tool: 'read_file', args: { path: nested(maxArgumentsDepth + 1) } } },
      { type: 'addStep', step: { id: 'W', kind: 'manual', title: 'w', checks: [{ kind: 'file_exists', path: 'a', extra: nested(1_000) }] } },
    ]) {
      const parsed = parseWebviewMessage({ type: 'edit', plan: shown, edit });
      assert.equal(parsed.ok, false, JSON.stringify(edit).slice(0, 120));
      if (!parsed.ok) assert.match(parsed.error, /levels deep/);
    }
    // What the session shows still builds.
    assert.equal(session.snapshot(0).mode, 'review');
  });

  it('attack: ten megabytes of arguments and a hundred thousand entries are refused on arrival, naming what to do', () => {
    for (const args of [
      { path: 'a.txt', content: 'x'.repeat(10_000_000) },
      { argv: Array.from({ length: 100_000 }, () => 'a') },
      Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`k${index}`, index])),
    ]) {
      const parsed = parseWebviewMessage({ type: 'edit', plan: shown, edit: { type: 'addStep', step: { id: 'W', kind: 'tool', title: 'w', tool: 'write_file', args } } });
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.match(parsed.error, /Keep the arguments under/);
    }
  });

  it('arguments a form holds (a file of a few hundred kilobytes, an edit list, a command) are taken and shown', () => {
    const session = new PanelSession('s', [readFileTool, writeFileTool] as Tool[]);
    session.setPlan(makePlan([makeStep('A', { input: 'x' })]));
    const content = 'line\n'.repeat(100_000);
    const parsed = parseWebviewMessage({
      type: 'edit',
      plan: shown,
      edit: { type: 'addStep', step: { id: 'W', kind: 'tool', title: 'w', tool: 'write_file', args: { path: 'a.txt', content } } },
    });
    assert.ok(parsed.ok && parsed.message.type === 'edit');
    const result = session.applyEdit(parsed.message.edit);
    assert.equal(result.ok, true, result.ok ? '' : result.error);
    assert.equal(session.snapshot(0).mode, 'review');
    const deepEnough = parseWebviewMessage({
      type: 'edit',
      plan: shown,
      edit: { type: 'updateStep', stepId: 'A', patch: { kind: 'tool', tool: 'read_file', args: { path: 'a.txt', x: nested(maxArgumentsDepth - 2) } } },
    });
    assert.equal(deepEnough.ok, true);
  });
});
