import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

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
  const article = new Readability(parseHTML(html).document).parse();
  const title = article?.title?.trim() || parseHTML(html).document.title.trim() || undefined;
  const content = article?.content ?? parseHTML(html).document.body?.innerHTML ?? html;
  const markdown = turndown.turndown(content).trim();
  return { ...(title ? { title } : {}), markdown };
}
