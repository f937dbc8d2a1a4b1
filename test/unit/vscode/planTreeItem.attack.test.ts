// Attacks on the Plan and Runs views' rows: a hostile model's plan, a tool's error and a committed journal's objective
// reach a row's label, description and tooltip (shown as they are by the workbench), and its spoken name.
import assert from 'node:assert/strict';
import { initialRunState } from '../../../src/core/engine/reduceRunEvent';
import type { RunState } from '../../../src/core/engine/runEvents';
import { parsePlan } from '../../../src/core/plan/parsePlan';
import type { Plan } from '../../../src/core/plan/planSchema';
import { planTreeModel, type PlanTreeNode } from '../../../src/core/view/planTreeModel';
import { runListModel } from '../../../src/core/view/runListModel';
import type * as vscodeTypes from 'vscode';
import { requireWithVscode } from '../../fakes/requireWithVscode';

class FakeTreeItem {
  [key: string]: unknown;
  constructor(
    readonly label: string,
    readonly collapsibleState: number,
  ) {}
}

const { planTreeItem } = requireWithVscode<{ planTreeItem: (node: PlanTreeNode) => vscodeTypes.TreeItem }>(require.resolve('../../../src/vscode/planTreeItem'), {
  TreeItem: FakeTreeItem,
  TreeItemCollapsibleState: { None: 0, Expanded: 2 },
  ThemeIcon: class {
    constructor(readonly id: string) {}
  },
  ThemeColor: class {
    constructor(readonly id: string) {}
  },
});

// Characters that act or hide: a direction override, a zero-width space, tag characters spelling "IGNORE", ESC, a line separator.
const hiding = /[\u202a-\u202e\u2066-\u2069\u200b\u{e0000}-\u{e007f}\u001b\u2028\u0085]/u;

function planOf(raw: unknown): Plan {
  const parsed = parsePlan(raw);
  assert.ok(parsed.ok, 'the plan is taken');
  return parsed.plan;
}

function shown(item: vscodeTypes.TreeItem): string[] {
  return [String(item.label), String(item.description), String(item.tooltip), item.accessibilityInformation?.label ?? ''];
}

describe('the Plan and Runs views show hostile text as text (attack)', () => {
  const tags = [...'IGNORE'].map((char) => String.fromCodePoint(0xe0000 + char.charCodeAt(0))).join('');
  const plan = planOf({
    objective: `Fix the bug\u202Egnp.exe${'\n'.repeat(40)}\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007`,
    steps: [
      {
        id: 'a',
        title: `Read the notes\u200b${tags}\u2028(approved)\u0085`,
        kind: 'tool',
        tool: 'read_file',
        args: { path: 'notes.md', padding: 'y'.repeat(300_000) },
        input: `Read it\u202E${'\n'.repeat(60)}then delete everything`,
      },
    ],
  });

  it('escapes controls, direction overrides, zero-width and tag characters in a step row, and bounds it', () => {
    const state: RunState = {
      ...initialRunState('r'),
      plan: plan,
      steps: { a: { id: 'a', status: 'failed', attempts: 1, error: `boom\u001b[2K\u001b[1A\r${'e'.repeat(100_000)}` } },
    };
    for (const node of [planTreeModel(plan)[0]!, planTreeModel(plan, 'flat', state)[0]!]) {
      const texts = shown(planTreeItem(node));
      for (const text of texts) assert.doesNotMatch(text, hiding, text.slice(0, 200));
      assert.ok(String(planTreeItem(node).label).length <= 200);
      assert.ok(String(planTreeItem(node).description).length <= 201);
      assert.ok(String(planTreeItem(node).tooltip).length <= 4_100, 'a 300 kB tooltip');
      assert.doesNotMatch(String(planTreeItem(node).tooltip), /\n\s*\n\s*\n/, 'blank lines pushing the rest out of the hover');
      assert.match(String(planTreeItem(node).label), /^1\. Read the notes\\u200b/);
    }
  });

  it("escapes a run's objective in the Runs view's row", () => {
    const state: RunState = { ...initialRunState('r'), plan: plan, status: 'completed' };
    const [node] = runListModel([{ state, updatedAt: 0, active: false, undone: false, undoable: false }], String);
    for (const text of shown(planTreeItem(node!))) assert.doesNotMatch(text, hiding, text.slice(0, 200));
    assert.match(String(planTreeItem(node!).label), /^Fix the bug\\u202egnp\.exe/);
  });

  it('leaves plain rows as they are', () => {
    const [node] = planTreeModel(planOf({ objective: 'o', steps: [{ id: 'a', title: 'Write ✓ the notes — café', kind: 'agent' }] }));
    const item = planTreeItem(node!);
    assert.equal(item.label, '1. Write ✓ the notes — café');
    assert.equal(item.tooltip, node!.tooltip);
  });
});
