import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/** What this module reads of a linkedom node (its DOM types need the DOM library, which the Node code is built without). */
interface PageNode {
  /** 1 an element, 3 text; the rest (comments, doctype) is left out. */
  nodeType: number;
  /** Upper case, for elements. */
  tagName?: string;
  childNodes: Iterable<PageNode>;
  /** The node as HTML (text escaped). */
  toString(): string;
}

/** What this module reads of a linkedom document. */
interface PageDocument {
  title: string;
  body: { innerHTML: string };
  childNodes: Iterable<PageNode>;
}

const parsePage = parseHTML as unknown as (html: string) => { document: PageDocument };

/** Elements that belong in `<head>` when a page leaves its `<head>` and `<body>` to be implied. */
const headElements = new Set(['TITLE', 'META', 'LINK', 'BASE', 'STYLE']);

/** An HTML page as Markdown: its title (when it has one) and the Markdown of its main content. */
export interface PageMarkdown {
  title?: string;
  markdown: string;
}

/**
 * The main content of the HTML page `html` as Markdown: Mozilla's Readability (over a
 * linkedom document) picks the article, Turndown writes it; a page Readability finds no
 * article in is converted whole (its body). A page that leaves `<html>`, `<head>` or
 * `<body>` out (as HTML5 allows) is read as if they were there, so a page with visible text
 * gives Markdown holding it. Scripts, styles and forms are dropped. Relative links stay as
 * written. A page past `htmlShapeLimits` (nested deeper, more elements, more "&", "<", ">"
 * or no-break spaces in its text, or more text times depth), or one the libraries fail on,
 * is given as its text without tags. Time is linear in the length of `html`: the shape
 * check is, and it bounds the work the libraries are given.
 */
export function htmlToMarkdown(html: string): PageMarkdown {
  // Readability and Turndown walk the tree recursively and slow down steeply with depth, nodes and text read per
  // level: a page past what real articles need is given as its text, so a hostile page cannot stall the editor.
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
  const page = parsePage(wholeDocument(html)).document;
  // Read before Readability, which changes the document it reads.
  const pageTitle = page.title.trim();
  const body = page.body.innerHTML;
  const article = new Readability(page).parse();
  const title = article?.title?.trim() || pageTitle || undefined;
  const markdown = turndown.turndown(article?.content ?? body).trim();
  return { ...(title ? { title } : {}), markdown };
}

/**
 * `html` with `<html>`, `<head>` and `<body>` spelled out: linkedom implies none of them (a
 * page starting with `<p>` made the paragraph the root and left the body empty), so each
 * node goes where an HTML5 parser would put it: `headElements` outside `<body>` into the
 * head, the rest into the body.
 */
function wholeDocument(html: string): string {
  const head: string[] = [];
  const body: string[] = [];
  const place = (nodes: Iterable<PageNode>, inBody: boolean): void => {
    for (const node of nodes) {
      const tag = node.nodeType === 1 ? node.tagName : undefined;
      if (tag === 'HTML' || tag === 'HEAD' || tag === 'BODY') place(node.childNodes, inBody || tag === 'BODY');
      else if (tag !== undefined) (!inBody && headElements.has(tag) ? head : body).push(node.toString());
      else if (node.nodeType === 3) body.push(node.toString());
    }
  };
  place(parsePage(html).document.childNodes, false);
  return `<!DOCTYPE html><html><head>${head.join('')}</head><body>${body.join('')}</body></html>`;
}

/**
 * The most `htmlToMarkdown` converts as a page: `maxDepth` nested elements, `maxElements`
 * elements (and twice as many "<"), `maxEntities` characters `&`, `<`, `>` and U+00A0
 * outside tags (each may cost the parser two nodes: linkedom writes them back as entities
 * and gives each entity a text node of its own), and `maxTextDepth` for the sum over the
 * characters outside tags of the number of elements each is nested in (characters ×
 * levels: the libraries read an element's text once for each element around it).
 */
export const htmlShapeLimits = { maxDepth: 256, maxElements: 20_000, maxEntities: 40_000, maxTextDepth: 16_000_000 } as const;

const voidElements = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** Whether `html` stays within `htmlShapeLimits`, judged by two passes over it (time linear in its length). */
function withinShape(html: string): boolean {
  // Stray "<" cost the parser as much as tags do.
  let brackets = 0;
  for (let at = html.indexOf('<'); at >= 0; at = html.indexOf('<', at + 1)) if (++brackets > 2 * htmlShapeLimits.maxElements) return false;
  let depth = 0;
  let elements = 0;
  let entities = 0;
  let textDepth = 0;
  let textFrom = 0;
  // Text runs from the end of one tag to the start of the next, and from the last tag to the end.
  const withinText = (textTo: number): boolean => {
    textDepth += depth * (textTo - textFrom);
    entities += entityCharacters(html, textFrom, textTo);
    return textDepth <= htmlShapeLimits.maxTextDepth && entities <= htmlShapeLimits.maxEntities;
  };
  for (const match of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]{0,30})[^<>]*?(\/?)>/g)) {
    const [tag, closing, name = '', selfClosing] = match;
    if (!withinText(match.index)) return false;
    textFrom = match.index + tag.length;
    if (closing) {
      depth = Math.max(0, depth - 1);
      continue;
    }
    elements++;
    if (!selfClosing && !voidElements.has(name.toLowerCase())) depth++;
    if (depth > htmlShapeLimits.maxDepth || elements > htmlShapeLimits.maxElements) return false;
  }
  return withinText(html.length);
}

/** How many of `html`'s characters from `from` to `to` (exclusive) are "&", "<", ">" or U+00A0. */
function entityCharacters(html: string, from: number, to: number): number {
  let count = 0;
  for (let at = from; at < to; at++) {
    const code = html.charCodeAt(at);
    if (code === 0x26 || code === 0x3c || code === 0x3e || code === 0xa0) count++;
  }
  return count;
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
