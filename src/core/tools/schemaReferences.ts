/**
 * How `$ref`s inside `root` (a JSON Schema) resolve: `#` is the root, `#/a/b` a JSON pointer into it (`~1` and `~0`
 * unescaped), `#name` an `$anchor` or `$dynamicAnchor` declared anywhere in it. `undefined` for a reference that leads
 * nowhere; a reference outside the schema is never followed.
 */
export function schemaReferences(root: Readonly<Record<string, unknown>>): (reference: string) => unknown {
  const anchors = new Map<string, unknown>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    const record = node as Record<string, unknown>;
    for (const key of ['$anchor', '$dynamicAnchor']) {
      const anchor = record[key];
      if (typeof anchor === 'string') anchors.set(anchor, record);
    }
    for (const member of Object.values(record)) visit(member);
  };
  visit(root);
  return (reference) => {
    if (reference === '#') return root;
    if (!reference.startsWith('#')) return undefined;
    if (!reference.startsWith('#/')) return anchors.get(decodeURIComponent(reference.slice(1)));
    let target: unknown = root;
    for (const raw of reference.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      if (target === null || typeof target !== 'object' || !Object.hasOwn(target, key)) return undefined;
      target = (target as Record<string, unknown>)[key];
    }
    return target;
  };
}
