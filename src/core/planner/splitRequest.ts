/** A request cut into step texts, and the lead-in that introduced a list, if any. */
export interface SplitRequest {
  /** Text before a list that ends with ":" ("Do the following:"); it describes, it is not a step. */
  preamble?: string;
  parts: string[];
}

const listItem = /^\s*(?:[-*•+]|\d{1,3}[.)]|\(\d{1,3}\))\s+(.*)$/;
const connective = String.raw`(?:and then|then|next|after that|afterwards|finally|lastly)`;
// A new sentence starts after . ! ? or ; and whitespace, with a capital letter, a digit,
// a backtick or a sequencing word ("then", "next", …).
const sentenceBoundary = new RegExp(String.raw`(?<=[.!?;])\s+(?=[A-Z0-9\x60"']|${connective}\b[,:]?\s)`);
const commaThenConnective = new RegExp(String.raw`,\s+(?=(?:and then|then)\s)`, 'i');
const leadingConnective = new RegExp(String.raw`^(?:${connective}|first(?: of all)?|to start)\b[,:]?\s*`, 'i');

/**
 * Splits a normalized request into step texts (DESIGN §5): one per list bullet or numbered
 * line (indented or following lines continue the item), and, in running text, at each
 * sentence boundary and at a comma followed by "then"; a leading sequencing word ("then",
 * "next", "after that", "finally", "and then", …) is removed from the step.
 */
export function splitRequest(text: string): SplitRequest {
  const lines = text.split('\n');
  const firstItem = lines.findIndex((line) => listItem.test(line));
  if (firstItem < 0) return { parts: splitProse(text) };

  const parts: string[] = [];
  let preamble: string | undefined;
  const lead = lines.slice(0, firstItem).join('\n').trim();
  if (lead.endsWith(':')) preamble = lead.slice(0, -1).trim();
  else if (lead !== '') parts.push(...splitProse(lead));

  let current: string | undefined;
  let prose: string[] = [];
  const flushProse = (): void => {
    if (prose.join('').trim() !== '') parts.push(...splitProse(prose.join('\n')));
    prose = [];
  };
  for (const line of lines.slice(firstItem)) {
    const item = listItem.exec(line);
    if (item) {
      flushProse();
      if (current !== undefined) parts.push(current);
      current = item[1]!.trim();
    } else if (line.trim() === '') {
      if (current !== undefined) parts.push(current);
      current = undefined;
    } else if (current !== undefined) {
      current = `${current}\n${line.trim()}`;
    } else {
      prose.push(line);
    }
  }
  if (current !== undefined) parts.push(current);
  flushProse();
  return { ...(preamble ? { preamble } : {}), parts: parts.map(cleanPart).filter((part) => part !== '') };
}

function splitProse(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .flatMap((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').split(sentenceBoundary))
    .flatMap((sentence) => sentence.split(commaThenConnective))
    .map(cleanPart)
    .filter((part) => part !== '');
}

function cleanPart(part: string): string {
  const stripped = part.trim().replace(leadingConnective, '').trim();
  return stripped.charAt(0).toUpperCase() + stripped.slice(1);
}
