// What a model's step says that reaches outside the workspace: the network, a web search, another service's API. Each
// is a phrase, never a lone word: "search" is `notes search` or search_text, "request" a pull request, "API" the
// project's own public API.
const outsidePhrases: readonly RegExp[] = [
  /\b(?:network|internet|online|websites?|web ?sites?|web ?pages?|remote (?:server|host|service|repo(?:sitory)?)s?)\b/,
  /\b(?:on|from|across|over) the web\b/,
  /\b(?:web|internet|online|google|bing) ?search(?:es|ing)?\b/,
  /\bsearch(?:es|ing)? (?:the )?(?:web|internet|online)\b/,
  /\bhttps?\b/,
  /\b(?:download|upload)(?:s|ed|ing)?\b/,
  /\b(?:curl|wget)\b/,
  /\bapi (?:calls?|requests?|endpoints?|responses?)\b/,
  /\b(?:rest|http|web|remote|external|third[- ]party) (?:apis?|services?|endpoints?)\b/,
  /\b(?:call|calls|calling|query|queries|querying) (?:the |an? )?(?:[\w.-]+ ){0,2}apis?\b/,
  /\bfetch(?:es|ed|ing)?\b/,
];

// Code spans are the product's own words (`notes search`) unless they reach a URL or a download program.
const outsideInCode = /\b(?:curl|wget)\b|https?:\/\//i;
const codeSpan = /`[^`]*`/g;
// An identifier or a path names code, not what the step does: searchNotes, fetch_url, src/network.ts, api.md.
const identifier = /[a-z][A-Z]|\w[_./\\]\w/;

/**
 * Whether a model's step text says it depends on the world outside the workspace: the network, HTTP, a download, a web
 * search, another service's API, fetching (a URL anywhere counts, and `fetch_url` named). Code spans count only for a
 * URL or a download program in them; identifiers and paths (`searchNotes`, `src/network.ts`) never.
 */
export function saysOutside(text: string): boolean {
  if (/\bfetch_url\b|https?:\/\//i.test(text)) return true;
  for (const [code] of text.matchAll(codeSpan)) if (outsideInCode.test(code)) return true;
  const words = text.replace(codeSpan, ' ').split(/\s+/);
  const prose = words.filter((word) => !identifier.test(word)).join(' ').toLowerCase();
  return outsidePhrases.some((phrase) => phrase.test(prose));
}
