import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './importGraph';

/** One Markdown page of the repository's documentation: its path from the root and its text. */
export interface MarkdownPage {
  path: string;
  text: string;
}

/** README.md and every `docs/*.md`: the pages a user reads (the walkthrough's pages have their own test). */
export function readDocPages(): MarkdownPage[] {
  const docs = readdirSync(join(projectRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs].map((path) => ({ path, text: readFileSync(join(projectRoot, path), 'utf8') }));
}

/** An inline code span: its backticks, then its text up to the same number of backticks. */
const codeSpan = /(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;

/** The inline code spans (`` `…` ``, or between double backticks when they hold one) and the lines of fenced code blocks of `text`, in order. */
export function codeTexts(text: string): string[] {
  const fenced: string[] = [];
  const prose = text.replace(/^ *```[^\n]*\n([\s\S]*?)^ *```/gm, (_block, body: string) => {
    fenced.push(...body.split('\n'));
    return '';
  });
  // A span may wrap over a line end in the Markdown source; GitHub reads it as one space.
  const spans = [...prose.matchAll(codeSpan)].map((match) => (match[2] ?? '').replace(/\s*\n\s*/g, ' ').trim());
  return [...spans, ...fenced];
}

/** The targets of the Markdown links and images of `text` (`[…](target)`), code left out. */
export function linkTargets(text: string): string[] {
  const prose = text.replace(/^ *```[\s\S]*?^ *```/gm, '').replace(codeSpan, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
}

/**
 * The anchors GitHub gives the headings of `text`: lower case, punctuation dropped, spaces
 * as hyphens, a repeated one numbered (`-1`, `-2`).
 */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const prose = text.replace(/^ *```[\s\S]*?^ *```/gm, '');
  for (const match of prose.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = (match[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
