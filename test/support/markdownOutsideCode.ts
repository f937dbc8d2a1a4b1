// What a Markdown renderer parses as Markdown outside code, for the attacks on the Markdown the product writes.

/**
 * `markdown` with every code span and fenced block replaced by a space: what GitHub and VS Code's preview parse as Markdown
 * and hand to their linkers (mentions, issue references, e-mail addresses, URLs and bare domains are linked after
 * parsing; nothing inside code is). A backslash escape is kept as written, so it cannot open a span.
 */
export function outsideCode(markdown: string): string {
  let text = '';
  for (let index = 0; index < markdown.length; index++) {
    const char = markdown[index]!;
    if (char === '\\') {
      text += markdown.slice(index, index + 2);
      index++;
    } else if (char === '`') {
      const run = /^`+/.exec(markdown.slice(index))![0];
      const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
      close.lastIndex = index + run.length;
      const found = close.exec(markdown);
      text += found ? ' ' : run;
      index = (found ? found.index : index) + run.length - 1;
    } else text += char;
  }
  return text;
}

/** `markdown` outside code, each backslash escape read as the character it shows: the text a linker reads after parsing. */
export function shownOutsideCode(markdown: string): string {
  return outsideCode(markdown).replace(/\\([!-/:-@[-`{-~])/g, '$1');
}
