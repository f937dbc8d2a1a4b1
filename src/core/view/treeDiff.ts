import type { PlanTreeNode } from './planTreeModel';

/** What changed between two renderings of a tree. */
export type TreeChange =
  /** The shape changed (nodes added, removed, moved or re-parented): refresh the whole tree. */
  | { kind: 'structure' }
  /** Same shape; only these nodes' own fields changed (possibly none). */
  | { kind: 'nodes'; changed: PlanTreeNode[] };

/**
 * Compares two renderings of a tree by node id. When both have the same ids in the same
 * places, returns the nodes of `next` whose label, description, tooltip, icon, colour or
 * context value differ, so a view can refresh only those items; otherwise `structure`.
 */
export function diffTrees(previous: readonly PlanTreeNode[], next: readonly PlanTreeNode[]): TreeChange {
  const changed: PlanTreeNode[] = [];
  const walk = (before: readonly PlanTreeNode[], after: readonly PlanTreeNode[]): boolean => {
    if (before.length !== after.length) return false;
    for (let index = 0; index < after.length; index++) {
      const old = before[index]!;
      const node = after[index]!;
      if (old.id !== node.id) return false;
      if (!walk(old.children, node.children)) return false;
      if (
        old.label !== node.label ||
        old.description !== node.description ||
        old.tooltip !== node.tooltip ||
        old.icon !== node.icon ||
        old.color !== node.color ||
        old.contextValue !== node.contextValue
      ) {
        changed.push(node);
      }
    }
    return true;
  };
  return walk(previous, next) ? { kind: 'nodes', changed } : { kind: 'structure' };
}

/** Every node of the tree, depth first, by id. */
export function indexTree(nodes: readonly PlanTreeNode[]): Map<string, PlanTreeNode> {
  const index = new Map<string, PlanTreeNode>();
  const visit = (list: readonly PlanTreeNode[]): void => {
    for (const node of list) {
      index.set(node.id, node);
      visit(node.children);
    }
  };
  visit(nodes);
  return index;
}
