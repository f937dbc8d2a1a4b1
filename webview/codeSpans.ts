import { html, type TemplateResult } from 'lit';
import { shownText } from './formatting';

/** A part of a text: plain, or what a pair of backticks marked as code. */
export interface TextPart {
  code: boolean;
  text: string;
}

// A pair of backticks around 1 to 200 characters of one line, none of them a backtick.
const codeSpan = /`([^`\n]{1,200})`/g;

/**
 * `text` cut into its plain parts and the parts a pair of backticks marks as code, in order, without the backticks
 * ("Run `npm test`": "Run ", then the code "npm test"). A backtick without its pair stays as it is.
 */
export function splitCodeSpans(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const match of text.matchAll(codeSpan)) {
    if (match.index > at) parts.push({ code: false, text: text.slice(at, match.index) });
    parts.push({ code: true, text: match[1]! });
    at = match.index + match[0].length;
  }
  if (at < text.length || parts.length === 0) parts.push({ code: false, text: text.slice(at) });
  return parts;
}

/**
 * A step's title (a model's words, often with Markdown's backticks) as the panel shows it: each part through `shownText`,
 * a code part in `<code>` (a trial read "Run \`npm test\`" with its backticks). Lit writes each part as text, never markup.
 */
export function titleWithCode(title: string): TemplateResult {
  return html`${splitCodeSpans(title).map((part) => (part.code ? html`<code>${shownText(part.text)}</code>` : shownText(part.text)))}`;
}
