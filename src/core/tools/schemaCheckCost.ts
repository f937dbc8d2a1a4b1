import { schemaReferences } from './schemaReferences';

// Keywords whose subschemas apply to the same value; `dependentSchemas` is a record of them.
const sameValueLists = ['allOf', 'anyOf', 'oneOf'];
const sameValueSingles = ['not', 'if', 'then', 'else'];
// Keywords whose subschema applies to every member of an object, or every item of an array (at most: a pattern or
// `prefixItems` may leave some out, which only makes the count an upper bound).
const everyMember = ['additionalProperties', 'unevaluatedProperties'];
const everyItem = ['items', 'additionalItems', 'unevaluatedItems', 'contains'];
/** Deepest value followed: deeper ones count as over any budget (a stack is finite). */
const maxValueDepth = 256;

/**
 * About how many times a validator visits a subschema of `schema` to check `value` (an upper bound: every branch of
 * `anyOf`/`oneOf`/`allOf`, every `$ref`, every member or item a subschema may apply to), counted without doing it, and
 * at most `limit + 1`. A schema of a few kilobytes whose references and branches double at each level needs 2^levels
 * visits (a hostile MCP server's tool froze the host while its tools were listed): a caller refuses to check a value
 * whose count passes its limit. Counted per pair of subschema and value node, so the count itself takes polynomial time.
 * Assumes what `outputSchemaProblems` checks first: references inside the schema and no loop through the same value.
 */
export function schemaCheckCost(schema: Readonly<Record<string, unknown>>, value: unknown, limit: number): number {
  const resolve = schemaReferences(schema);
  // Primitive values share one key: checking a subschema against any of them visits the same subschemas.
  const leaf = {};
  const memo = new Map<object, Map<object, number>>();
  const add = (a: number, b: number): number => Math.min(a + b, limit + 1);

  const cost = (node: unknown, at: unknown, depth: number): number => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return 0;
    if (depth > maxValueDepth) return limit + 1;
    const key = at !== null && typeof at === 'object' ? at : leaf;
    const known = memo.get(node)?.get(key);
    if (known !== undefined) return known;
    const record = node as Record<string, unknown>;
    let total = 1;
    const same = (target: unknown): void => {
      total = add(total, cost(target, at, depth));
    };
    for (const keyword of ['$ref', '$dynamicRef']) {
      const reference = record[keyword];
      if (typeof reference === 'string') same(resolve(reference));
    }
    for (const keyword of sameValueLists) {
      const list = record[keyword];
      if (Array.isArray(list)) for (const branch of list) same(branch);
    }
    for (const keyword of sameValueSingles) same(record[keyword]);
    const dependent = record['dependentSchemas'];
    if (dependent !== null && typeof dependent === 'object') for (const branch of Object.values(dependent)) same(branch);
    if (Array.isArray(at)) total = add(total, itemsCost(record, at, depth));
    else if (at !== null && typeof at === 'object') total = add(total, membersCost(record, at as Record<string, unknown>, depth));
    let forNode = memo.get(node);
    if (!forNode) memo.set(node, (forNode = new Map<object, number>()));
    forNode.set(key, total);
    return total;
  };

  const itemsCost = (record: Record<string, unknown>, items: readonly unknown[], depth: number): number => {
    let total = 0;
    const prefix = Array.isArray(record['prefixItems']) ? (record['prefixItems'] as unknown[]) : [];
    for (const [index, item] of items.entries()) {
      total = add(total, cost(prefix[index], item, depth + 1));
      for (const keyword of everyItem) total = add(total, cost(record[keyword], item, depth + 1));
      if (total > limit) break;
    }
    return total;
  };

  const membersCost = (record: Record<string, unknown>, members: Record<string, unknown>, depth: number): number => {
    let total = 0;
    const properties = record['properties'];
    const patterns = record['patternProperties'];
    for (const [name, member] of Object.entries(members)) {
      if (properties !== null && typeof properties === 'object' && Object.hasOwn(properties, name)) {
        total = add(total, cost((properties as Record<string, unknown>)[name], member, depth + 1));
      }
      if (patterns !== null && typeof patterns === 'object') for (const branch of Object.values(patterns)) total = add(total, cost(branch, member, depth + 1));
      for (const keyword of everyMember) total = add(total, cost(record[keyword], member, depth + 1));
      total = add(total, cost(record['propertyNames'], name, depth + 1));
      if (total > limit) break;
    }
    return total;
  };

  return cost(schema, value, 0);
}
