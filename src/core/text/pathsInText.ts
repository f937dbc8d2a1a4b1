/** Names that look like files but are products or abbreviations ("Next.js", "e.g."). */
const notPaths = new Set([
  'e.g',
  'i.e',
  'etc',
  'vs',
  'node.js',
  'next.js',
  'nuxt.js',
  'vue.js',
  'react.js',
  'express.js',
  'three.js',
  'd3.js',
  'chart.js',
  'socket.io',
  'asp.net',
]);
/** Well-known files without an extension, written exactly like this. */
const bareFiles = new Set(['Makefile', 'Dockerfile', 'LICENSE', 'Procfile', 'Gemfile', 'Rakefile', 'Jenkinsfile']);
const pathShape = /^(?:\.{1,2}\/)?[\w@+-][\w@.+-]*(?:\/[\w@.+-]+)*\/?$|^\.[\w][\w.-]*$/;
const extension = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;

/**
 * Whether `token` (already stripped of quotes and trailing punctuation) names a workspace
 * file or directory: it has a "/" or a file extension, or is a dotfile or a well-known
 * extensionless file. Versions ("15.2"), URLs and product names ("Next.js") are not paths.
 */
export function isPathToken(token: string): boolean {
  if (token === '' || token.length > 300 || token.includes('://') || !pathShape.test(token)) return false;
  if (/^[\d.]+$/.test(token) || /^v?\d+(?:\.\d+)+(?:-[\w.]+)?$/.test(token) || notPaths.has(token.toLowerCase())) return false;
  if (token.startsWith('@') && !token.includes('/')) return false;
  return token.includes('/') || extension.test(token) || /^\.[\w]/.test(token) || bareFiles.has(token);
}

/** A directory path: ends with "/" or has no file extension. */
export function isDirectoryToken(token: string): boolean {
  return token.endsWith('/') || (!extension.test(token) && !bareFiles.has(token) && !/^\.[\w]/.test(token));
}

/** Strips quotes, backticks, brackets and trailing sentence punctuation around one word. */
export function cleanToken(word: string): string {
  const closing = /(?<![`'")\]>])[`'")\]>]+$/;
  return word.replace(/^[`'"([<]+/, '').replace(closing, '').replace(/(?<![.,;:!?])[.,;:!?]+$/, '').replace(closing, '');
}

/** Every distinct path the text names, in order of appearance (URLs left out). */
export function pathsInText(text: string): string[] {
  const found = text
    .replace(/\bhttps?:\/\/\S+/gi, ' ')
    .split(/[\s,]+/)
    .map(cleanToken)
    .filter(isPathToken)
    .map((token) => token.replace(/^\.\//, ''));
  return [...new Set(found)];
}
