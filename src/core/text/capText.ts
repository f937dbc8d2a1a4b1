/**
 * The caps on text that a predicate, a tool or a model hands to the journal, a prompt or
 * the screen, in characters (UTF-16 code units). Every cut is visible: `capText` ends the
 * kept part with "… (N more characters cut)".
 */
export const textCaps = {
  /** An error message, a verification diagnosis, a skip reason or a question shown to the user. */
  message: 8_000,
  /** A step's result (its JSON text) as journaled, shown and handed to the steps after it. */
  result: 1_000_000,
  /** What an attempt that failed verification returned, as journaled for the replanner. */
  failedResult: 16_000,
  /** Streamed output of one step attempt (model text, tool progress). */
  output: 1_000_000,
  /** One model reply (text plus tool-call arguments). */
  modelReply: 2_000_000,
} as const;

/**
 * `text` when it has at most `maxChars` characters; else its first characters followed by
 * the marker "… (N more characters cut)", the whole at most `maxChars` characters long
 * (never cutting a surrogate pair in two). `maxChars` below the marker's length keeps the
 * marker alone.
 */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let keep = Math.max(0, maxChars - cutMarker(text.length).length);
  // The marker counts what is cut, so its length depends on `keep`; one correction settles it.
  keep = Math.max(0, maxChars - cutMarker(text.length - keep).length);
  if (keep > 0 && isHighSurrogate(text.charCodeAt(keep - 1))) keep--;
  return `${text.slice(0, keep)}${cutMarker(text.length - keep)}`;
}

/**
 * `value` (a JSON-like value) with its strings capped so that its JSON text stays near
 * `maxChars` (a string alone is `capText`): strings get at most half of what is left of the
 * budget, in document order; once it is spent, later array items and object members are replaced by one marker string each
 * ("… (N more items cut)" / "… (N more fields cut)"). A value that fits is returned as it
 * is (same object), and so is one `JSON.stringify` refuses (a cycle, a BigInt).
 */
export function capValue(value: unknown, maxChars: number): unknown {
  const size = jsonLength(value);
  if (size === undefined || size <= maxChars) return value;
  if (typeof value === 'string') return capText(value, maxChars);
  const budget = { left: maxChars };
  return capWithin(value, budget);
}

interface Budget {
  left: number;
}

const minStringChars = 64;

function capWithin(value: unknown, budget: Budget): unknown {
  if (typeof value === 'string') {
    // At most half of what is left, so one long string does not starve the members after it.
    const kept = capText(value, Math.max(minStringChars, Math.floor(budget.left / 2)));
    budget.left -= kept.length + 2;
    return kept;
  }
  if (value === null || typeof value !== 'object') {
    budget.left -= String(value).length;
    return value;
  }
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      if (budget.left <= 0) {
        items.push(`… (${value.length - index} more items cut)`);
        break;
      }
      items.push(capWithin(value[index], budget));
      budget.left -= 1;
    }
    return items;
  }
  const entries = Object.entries(value);
  const object: Record<string, unknown> = {};
  for (let index = 0; index < entries.length; index++) {
    const [key, member] = entries[index] as [string, unknown];
    if (budget.left <= 0) {
      object['…'] = `${entries.length - index} more fields cut`;
      break;
    }
    budget.left -= key.length + 4;
    // Defined, not assigned: a "__proto__" key (JSON.parse makes it an own field) stays a field instead of becoming the prototype.
    Object.defineProperty(object, key, { value: capWithin(member, budget), enumerable: true, writable: true, configurable: true });
  }
  return object;
}

function jsonLength(value: unknown): number | undefined {
  try {
    // Stryker disable next-line OptionalChaining: without it, undefined throws a TypeError, which the catch turns into the same undefined
    return JSON.stringify(value)?.length;
  } catch {
    return undefined;
  }
}

function cutMarker(cut: number): string {
  return `… (${cut} more characters cut)`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
