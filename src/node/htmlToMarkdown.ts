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
 * links stay as written.
 */
export function htmlToMarkdown(html: string): PageMarkdown {
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
