import { countTokens, truncateToTokens } from '../llm/tokenCount';

/** A block gets at least this many tokens, or is named as left out instead. */
const minBlockTokens = 64;

/** One titled text of a prompt section (an instruction file, a skill). */
export interface TextBlock {
  heading: string;
  text: string;
}

/**
 * `intro` and `blocks` within `budget` tokens: blocks go in order, each cut to what is left
 * (the cut is marked); a block with fewer than 64 tokens of room is left out, and one last
 * line names every block left out (its heading without `### `).
 */
export function renderBoundedBlocks(intro: string, blocks: readonly TextBlock[], budget: number): string {
  const out = [intro];
  let left = budget - countTokens(intro) - 2;
  const leftOut: string[] = [];
  for (const block of blocks) {
    const room = left - countTokens(block.heading) - 2;
    if (room < minBlockTokens) {
      leftOut.push(block.heading.replace(/^### /, ''));
      continue;
    }
    const text = truncateToTokens(block.text.trim(), room, { marker: '\n… (cut to keep the prompt small)' });
    out.push(`${block.heading}\n${text}`);
    left -= countTokens(block.heading) + countTokens(text) + 2;
  }
  if (leftOut.length > 0) out.push(`(Left out to keep the prompt small: ${leftOut.join('; ')}.)`);
  return out.join('\n\n');
}
