import assert from 'node:assert/strict';
import type { PlanTreeNode } from '../../../../src/core/view/planTreeModel';
import { diffTrees } from '../../../../src/core/view/treeDiff';

function node(id: string, patch: Partial<PlanTreeNode> = {}): PlanTreeNode {
  return { id, label: id, description: 'pending', tooltip: id, accessibilityLabel: id, icon: 'circle', color: 'grey', contextValue: 'step', children: [], ...patch };
}

describe('diffTrees', () => {
  const tree = [node('level:0', { children: [node('a'), node('b')] }), node('c')];

  it('names exactly the nodes whose shown fields changed, for every field a view shows', () => {
    const fields: Partial<PlanTreeNode>[] = [{ label: 'A' }, { description: 'running' }, { tooltip: 'new tip' }, { icon: 'sync' }, { color: 'blue' }, { contextValue: 'step.running' }];
    for (const patch of fields) {
      const next = [node('level:0', { children: [node('a'), node('b', patch)] }), node('c')];
      const change = diffTrees(tree, next);
      assert.deepEqual(change, { kind: 'nodes', changed: [next[0]!.children[1]] }, JSON.stringify(patch));
    }
    assert.deepEqual(diffTrees(tree, [node('level:0', { children: [node('a'), node('b')] }), node('c', { accessibilityLabel: 'said differently' })]), { kind: 'nodes', changed: [] }, 'what a view does not show is no change');
  });

  it('asks for a full refresh when a node is added, removed, moved or re-parented', () => {
    assert.deepEqual(diffTrees(tree, [...tree, node('d')]), { kind: 'structure' }, 'added');
    assert.deepEqual(diffTrees(tree, [node('level:0', { children: [node('a')] }), node('c')]), { kind: 'structure' }, 'removed');
    assert.deepEqual(diffTrees(tree, [node('level:0', { children: [node('b'), node('a')] }), node('c')]), { kind: 'structure' }, 'moved');
    assert.deepEqual(diffTrees(tree, [node('level:0', { children: [node('a')] }), node('c', { children: [node('b')] })]), { kind: 'structure' }, 're-parented');
  });
});
