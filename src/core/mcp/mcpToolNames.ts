import { createHash } from 'node:crypto';

/** A server's tool as the server names it. */
export interface McpToolRef {
  server: string;
  tool: string;
}

const prefix = 'mcp__';
const validName = /^[a-zA-Z0-9_-]{1,64}$/;
const maxNameLength = 64;
const suffixLength = 7;

/**
 * The server and tool a registry name reads as (`mcp__<server>__<tool>`, the server up to the first "__"; a hashed
 * name's tool keeps its suffix); `undefined` for a name that is not an MCP tool's.
 */
export function mcpToolRefOf(name: string): McpToolRef | undefined {
  const end = name.indexOf('__', prefix.length);
  if (!name.startsWith(prefix) || end <= prefix.length) return undefined;
  return { server: name.slice(prefix.length, end), tool: name.slice(end + 2) };
}

/**
 * The registry names of MCP tools, in the order of `refs`: `mcp__<server>__<tool>` where
 * that is already a valid, unused name (`[a-zA-Z0-9_-]{1,64}`, none of `reserved`);
 * otherwise every character outside that set becomes "_", the name is cut to fit, and "_"
 * plus a short hash of the exact server and tool names is appended. The result does not
 * depend on the order of `refs`: every name is unique, valid and the same each time.
 * Duplicate refs (the same server and tool twice) get one name each, in order.
 */
export function mcpToolNames(refs: readonly McpToolRef[], reserved: ReadonlySet<string> = new Set()): string[] {
  const plain = refs.map((ref) => `${prefix}${ref.server}__${ref.tool}`);
  const counts = new Map<string, number>();
  for (const name of plain) counts.set(name, (counts.get(name) ?? 0) + 1);
  const taken = new Set(reserved);
  const names: (string | undefined)[] = plain.map((name) => {
    if (!validName.test(name) || counts.get(name) !== 1 || reserved.has(name)) return undefined;
    taken.add(name);
    return name;
  });
  // Hashed names are given in the order of the exact names, so the outcome does not depend on the order of `refs`.
  const pending = refs.map((ref, index) => ({ ref, index })).filter(({ index }) => names[index] === undefined);
  // Stryker disable next-line all: the order matters only when two different refs' 7-digit hashes collide, which no test can produce
  pending.sort((a, b) => compare(a.ref.server, b.ref.server) || compare(a.ref.tool, b.ref.tool) || a.index - b.index);
  for (const { ref, index } of pending) {
    const base = (plain[index] as string).replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, maxNameLength - suffixLength - 1);
    // Stryker disable next-line UpdateOperator: any other attempt number also gives a fresh hash
    for (let attempt = 0; ; attempt++) {
      const name = `${base}_${shortHash(`${ref.server}\u0000${ref.tool}\u0000${attempt}`)}`;
      if (!taken.has(name)) {
        taken.add(name);
        names[index] = name;
        break;
      }
    }
  }
  return names as string[];
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, suffixLength);
}

// Stryker disable all: used only by the sort above
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
// Stryker restore all
