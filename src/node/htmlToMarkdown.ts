import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/** What this module reads of a linkedom document (its DOM types need the DOM library, which the Node code is built without). */
interface PageDocument {
  title: string;
  body: { innerHTML: string } | null;
}

const parsePage = parseHTML as unknown as (html: string) => { document: PageDocument };

/** An HTML page as Markdown: its title (when it has one) and the Markdown of its main content. */
export interface PageMarkdown {
  title?: string;
  markdown: string;
}

/**
 * The main content of the HTML page `html` as Markdown: Mozilla's Readability (over a
 * linkedom document) picks the article, Turndown writes it; a page Readability finds no
 * article in is converted whole (its body). Scripts, styles and forms are dropped. Relative
 * links stay as written. A page nested deeper or with more elements than `htmlShapeLimits`
 * allow (or more stray "<"), or one the libraries fail on, is given as its text without tags.
 */
export function htmlToMarkdown(html: string): PageMarkdown {
  // Readability and Turndown walk the tree recursively and slow down steeply with depth: a page nested deeper, or
  // with more elements, than real articles are is given as its text, so a hostile page cannot stall the editor.
  if (!withinShape(html)) return plainText(html);
  try {
    return articleMarkdown(html);
  } catch {
    // A document the libraries cannot take apart is still worth its text.
    return plainText(html);
  }
}

function articleMarkdown(html: string): PageMarkdown {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['script', 'style', 'noscript', 'iframe', 'form', 'template']);
  // Readability changes the document it reads, so the fallbacks read a fresh one.
  const article = new Readability(parsePage(html).document).parse();
  const page = parsePage(html).document;
  const title = article?.title?.trim() || page.title.trim() || undefined;
  const content = article?.content ?? page.body?.innerHTML ?? html;
  const markdown = turndown.turndown(content).trim();
  return { ...(title ? { title } : {}), markdown };
}

/** The deepest nesting and the most elements `htmlToMarkdown` converts as a page. */
export const htmlShapeLimits = { maxDepth: 256, maxElements: 20_000 } as const;

const voidElements = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** Whether `html` stays within `htmlShapeLimits`, judged by one pass over its tags. */
function withinShape(html: string): boolean {
  // Stray "<" cost the parser as much as tags do.
  let brackets = 0;
  for (let at = html.indexOf('<'); at >= 0; at = html.indexOf('<', at + 1)) if (++brackets > 2 * htmlShapeLimits.maxElements) return false;
  let depth = 0;
  let elements = 0;
  for (const match of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]{0,30})[^<>]*?(\/?)>/g)) {
    const [, closing, name = '', selfClosing] = match;
    if (closing) {
      depth = Math.max(0, depth - 1);
      continue;
    }
    elements++;
    if (!selfClosing && !voidElements.has(name.toLowerCase())) depth++;
    if (depth > htmlShapeLimits.maxDepth || elements > htmlShapeLimits.maxElements) return false;
  }
  return true;
}

function plainText(html: string): PageMarkdown {
  // Every pattern here is linear: a tag ends at the next "<" at the latest.
  const text = html
    .replace(/<[^<>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
  return { markdown: text };
}
