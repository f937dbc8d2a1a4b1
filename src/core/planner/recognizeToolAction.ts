import { cleanToken, isDirectoryToken, isPathToken } from '../text/pathsInText';
import { recognizeCommand, type CommandContext } from './recognizeCommand';

/** One call of a built-in tool with its exact argument names. */
export interface ToolCall {
  tool: 'read_file' | 'list_files' | 'search_text' | 'delete_file' | 'create_directory' | 'write_file' | 'run_command';
  args: Record<string, unknown>;
}

/** The tool calls a step text asks for; `inOrder` when each needs the one before (`a && b`). */
export interface ToolAction {
  calls: ToolCall[];
  inOrder: boolean;
}

const fileWords = String.raw`(?:the\s+)?(?:file|files)\s+`;
const reasonClause = /(?<!\s)\s+(?:since|because|as|which|that|it's|it is|they're|they are|—|-)\s.*$/i;
const dirWord = String.raw`(?:\s+(?:folder|directory|dir))?`;
const typeExtensions: Record<string, string> = {
  typescript: 'ts',
  javascript: 'js',
  markdown: 'md',
  json: 'json',
  python: 'py',
  css: 'css',
  html: 'html',
  yaml: 'yml',
  rust: 'rs',
  go: 'go',
  java: 'java',
  ruby: 'rb',
  test: 'test.*',
  spec: 'spec.*',
};
const searchStopWords = new Set([
  'the',
  'a',
  'an',
  'where',
  'why',
  'how',
  'what',
  'which',
  'who',
  'out',
  'any',
  'all',
  'some',
  'bugs',
  'bug',
  'a way',
  'ways',
  'it',
  'them',
  'this',
  'that',
  'and',
  'places',
  'files',
  'file',
  'code',
  'issues',
  'problems',
  'errors',
  'me',
  'us',
  'if',
  'whether',
  'whatever',
  'something',
  'anything',
  'everything',
  'someone',
  'more',
  'better',
  'one',
]);
/** Words for the whole workspace as a place ("in the project"): no folder of that name is meant. */
const wholeWorkspace = /^(?:workspace|project|repo|repository|root|codebase)$/i;
const searchTrailers = /^(?:comments?|markers?|strings?|calls?|usages?|uses|references?|occurrences?|mentions?|imports?|statements?|tags?|keys?)$/i;

/**
 * Recognizes a step text that is one plain tool action (docs/architecture.md §5): create a directory,
 * create an empty file or one holding a given text, delete files, list files, search text, read files, run a command
 * line (`recognizeCommand`, read against `context`). Returns `undefined` for anything else (the step is then work for an agent or a
 * person). Every call uses the tool's exact argument names, so it validates against the
 * built-in registry. `text` is one step, without URLs.
 */
export function recognizeToolAction(text: string, context: CommandContext = {}): ToolAction | undefined {
  // A closing "." is punctuation, a lone "." or "./..." an argument ("run eslint .", "run go test ./...").
  const line = joinSpacesOutsideQuotes(text.trim().replace(/(?<=[^\s/.;:!])[.;:!]+$/, ''));
  // A line break left is inside quotes (or escaped): a text or command of several lines is not one plain step's.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: an empty line matches no pattern below either
  if (line.includes('\n') || line === '') return undefined;
  const single = (call: ToolCall | undefined): ToolAction | undefined => (call ? { calls: [call], inOrder: false } : undefined);
  return (
    single(createDirectory(line)) ??
    single(emptyFile(line)) ??
    single(fileWithText(line)) ??
    deleteFiles(line) ??
    single(listFiles(line)) ??
    single(searchText(line)) ??
    readFiles(line) ??
    recognizeCommand(line, context)
  );
}

/**
 * `text` with each run of whitespace outside quotes as one space, and quoted text (`"…"` with its backslash escapes,
 * `'…'` opened where no letter or digit comes before, `` `…` ``) and a backslash with the character after it kept as
 * written: the text a file is given and a command's words are what the user typed. An opening quote that never closes is
 * an ordinary character (an apostrophe).
 */
function joinSpacesOutsideQuotes(text: string): string {
  let joined = '';
  let index = 0;
  // Once a quote finds no close after one place it finds none after any later one: the scan stays linear.
  const unclosed = new Set<string>();
  while (index < text.length) {
    const char = text[index]!;
    if (/\s/.test(char)) {
      const run = /\s+/y;
      run.lastIndex = index;
      run.exec(text);
      joined += ' ';
      index = run.lastIndex;
      continue;
    }
    const opens = char === '"' || char === '`' || (char === "'" && !/[\p{L}\p{N}]/u.test(text[index - 1] ?? ''));
    const close = opens && !unclosed.has(char) ? closingQuote(text, index) : -1;
    if (opens && close < 0) unclosed.add(char);
    const end = close >= 0 ? close + 1 : char === '\\' ? Math.min(index + 2, text.length) : index + 1;
    joined += text.slice(index, end);
    index = end;
  }
  return joined;
}

/** Where the quote opened at `start` closes (a backslash escapes within double quotes only), or -1. */
function closingQuote(text: string, start: number): number {
  const quote = text[start]!;
  for (let index = start + 1; index < text.length; index++) {
    if (text[index] === quote) return index;
    if (quote === '"' && text[index] === '\\') index++;
  }
  return -1;
}

function createDirectory(line: string): ToolCall | undefined {
  const match =
    /^(?:create|make|add|mkdir)\s+(?:(?:a|an|the|new|empty)\s+)*(?:directory|folder|dir)\s+(?:(?:called|named)\s+)?(\S+)(?:\s+(?:in|under|inside)\s+(?:the\s+)?(\S+?)(?:\s+(?:folder|directory))?)?(?:\s+(?:for|to)\s.*)?$/i.exec(line) ??
    /^mkdir\s+(?:-p\s+)?(\S+)$/i.exec(line) ??
    /^(?:create|make|add)\s+(?:(?:a|an|the|new|empty)\s+)*(\S+\/)(?:\s+(?:folder|directory))?$/i.exec(line);
  if (!match) return undefined;
  const name = cleanToken(match[1]!);
  const parent = match[2] === undefined ? undefined : cleanToken(match[2]);
  if (!/^[\w@.+/-]+$/.test(name) || (parent !== undefined && !/^[\w@.+/-]+$/.test(parent))) return undefined;
  const path = (parent ? `${parent.replace(/\/$/, '')}/${name}` : name).replace(/\/$/, '');
  return path === '' || path.startsWith('/') ? undefined : { tool: 'create_directory', args: { path } };
}

function emptyFile(line: string): ToolCall | undefined {
  const match = /^(?:create|add|make)\s+(?:(?:a|an|the|new)\s+)*empty\s+file\s+(?:(?:called|named)\s+)?(\S+)$/i.exec(line) ?? /^touch\s+(\S+)$/i.exec(line);
  const path = match ? cleanToken(match[1]!) : undefined;
  return path !== undefined && isPathToken(path) && !path.endsWith('/') ? { tool: 'write_file', args: { path, content: '' } } : undefined;
}

/** Words that name what to generate, not a text to write: "a file a.test.ts with tests" is work for an agent. */
const generatedContent =
  /^(?:tests?|code|content|contents|boilerplate|docs?|documentation|examples?|stubs?|types?|functions?|class(?:es)?|comments?|placeholders?|defaults?|templates?|headers?|exports?|imports?)$/i;
/** The longest text a step's words give a file to hold, in characters; a longer one is an agent's to write. */
const maxGivenText = 200;

/**
 * "Create a file hello.txt with hello", "… containing "two words"", "create RELEASE.md with the text 0.1.0", "write 'hi' to a.txt": the
 * file holding that text and a closing newline. Only a text the words give literally: quoted, after "the text", or one
 * plain word that names no kind of content (an editor trial's "Create a file X with hello" became a person's step).
 */
function fileWithText(line: string): ToolCall | undefined {
  const created =
    /^(?:create|add|make|write)\s+(?:(?:a|an|the|new)\s+)*(file\s+(?:(?:called|named)\s+)?)?(\S+)\s+(?:with|containing|that\s+(?:says|contains))\s+(?:(?:the\s+)?(text|content|contents|line|words?)\s+)?(\S.*)$/i.exec(
      line,
    );
  const written = created ? undefined : /^write\s+("[^"]*"|'[^']*'|`[^`]*`)\s+(?:to|into|in)\s+(?:the\s+)?(?:file\s+)?(\S+)$/i.exec(line);
  const path = cleanToken((created?.[2] ?? written?.[2]) ?? '');
  const given = created?.[4] ?? written?.[1] ?? '';
  // One quoted text, its quote nowhere inside: `"a" and "b"` gives no text, and is no step of one tool call.
  const quoted = /^(["'`])((?:(?!\1).)*)\1$/.exec(given);
  if (!quoted && /^["'`]/.test(given)) return undefined;
  // One plain word or version ("hello", "0.1.0"), never a phrase: "with an express server" is what to write, not the text.
  const text = quoted ? quoted[2]! : created?.[3] !== undefined ? given : /^[\w!?,.'-]+$/.test(given) && !generatedContent.test(given) ? given : undefined;
  // Without the word "file", the name must look like one (a path with a dot or slash): "create tests with jest" is no file.
  const named = created?.[1] !== undefined || written !== null || /[./]/.test(path);
  if (text === undefined || !named || text.length > maxGivenText || !isPathToken(path) || path.endsWith('/') || path.startsWith('/')) return undefined;
  return { tool: 'write_file', args: { path, content: `${text}\n` } };
}

function deleteFiles(line: string): ToolAction | undefined {
  const match = new RegExp(
    String.raw`^(?:delete|remove|rm)\s+(?:-f\s+)?(?:(?:the|old|unused|obsolete|stale|legacy|generated)\s+)*(?:${fileWords})?(\S.*)$`,
    'i',
  ).exec(line);
  if (!match || /\b(?:folder|directory|dir)\b/i.test(line)) return undefined;
  const paths = pathList(match[1]!.replace(reasonClause, '').replace(/(?<!\s)\s+from\s+(?:the\s+)?(?:disk|repo|repository|workspace|project)$/i, ''));
  if (!paths || paths.some(isDirectoryToken)) return undefined;
  return { calls: paths.map((path) => ({ tool: 'delete_file', args: { path } })), inOrder: false };
}

function listFiles(line: string): ToolCall | undefined {
  const files = new RegExp(
    String.raw`^(?:list|show(?:\s+me)?|display|ls)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:([*.\w]+)\s+)?files?(?:\s+(?:in|under|inside|of|within)\s+(?:the\s+)?(\S+?)${dirWord})?$`,
    'i',
  ).exec(line);
  if (files) {
    const extension = extensionOf(files[1]);
    if (extension === null) return undefined;
    return globCall(files[2], extension);
  }
  const contents = /^(?:list|ls)\s+(?:the\s+)?(?:contents\s+of\s+(?:the\s+)?)?(\S+?)(\s+(?:folder|directory|dir))?$/i.exec(line);
  if (!contents) return undefined;
  const dir = cleanToken(contents[1]!);
  const named = contents[2] !== undefined ? /^[\w@.+-]+$/.test(dir) : isPathToken(dir) && isDirectoryToken(dir);
  return named ? globCall(dir, undefined) : undefined;
}

/** `undefined`: any file; `null`: a word that is not a file type ("List the open files"). */
function extensionOf(word: string | undefined): string | undefined | null {
  if (word === undefined) return undefined;
  const plain = word.toLowerCase();
  if (typeExtensions[plain]) return typeExtensions[plain];
  const literal = /^\*?\.([a-z0-9]{1,8})$/i.exec(word);
  if (literal) return literal[1]!;
  return plain === 'source' || plain === 'project' || plain === 'workspace' ? undefined : null;
}

function globCall(dirWordText: string | undefined, extension: string | undefined): ToolCall | undefined {
  const dir = dirWordText === undefined ? undefined : cleanToken(dirWordText).replace(/^\.\//, '').replace(/\/$/, '');
  if (dir !== undefined && !(dir === '.' || (isPathToken(dir) || /^[\w@.+-]+$/.test(dir)) && !dir.startsWith('/'))) return undefined;
  const file = extension === undefined ? '**' : `**/*.${extension}`;
  if (dir === undefined || dir === '.' || wholeWorkspace.test(dir)) {
    return { tool: 'list_files', args: extension === undefined ? {} : { glob: `*.${extension}` } };
  }
  return { tool: 'list_files', args: { glob: `${dir}/${file}` } };
}

/** "Find where X is used" (called, defined…), "where is X used in src": the search for X. */
const whereUsed =
  /^(?:(?:find|show(?:\s+me)?|tell\s+me|list)\s+)?(?:out\s+)?where\s+(?:is\s+|are\s+)?(`[^`]+`|"[^"]+"|'[^']+'|[^\s`"']+)\s+(?:is\s+|are\s+|gets\s+)?(?:used|called|defined|declared|referenced|imported|mentioned)(\s+(?:in|under|within|across|inside)\s+\S.*)?$/i;

function searchText(line: string): ToolCall | undefined {
  const where = whereUsed.exec(line);
  if (where) return searchText(`search for ${where[1]!}${where[2] ?? ''}`);
  const match = /^(?:search|grep|find|look|locate)\s+(?:(?:the\s+)?(?:code(?:base)?|repo(?:sitory)?|project|workspace|files)\s+)?(?:for\s+)?(?:all\s+|every\s+)?(?:(?:the\s+)?(?:usages?|uses|occurrences|references|mentions|instances|calls)\s+(?:of|to)\s+)?(`[^`]+`|"[^"]+"|'[^']+'|[^\s`"']+)(?:\s+(\S+))?(?:\s+(?:in|under|within|across|inside)\s+(?:the\s+)?(\S+?)(?:\s+(?:folder|directory|files?))?)?$/i.exec(line);
  if (!match) return undefined;
  const raw = match[1]!;
  const quoted = /^[`"']/.test(raw);
  const query = quoted ? raw.slice(1, -1) : raw;
  if (!quoted && (searchStopWords.has(query.toLowerCase()) || /^(?:for|in|of)$/i.test(query))) return undefined;
  if (match[2] !== undefined && !searchTrailers.test(match[2])) return undefined;
  const scope = match[3] === undefined ? undefined : cleanToken(match[3]);
  if (query.trim() === '' || query.length > 1000) return undefined;
  if (scope === undefined || wholeWorkspace.test(scope)) return { tool: 'search_text', args: { query } };
  const glob = scopeGlob(scope);
  return glob === undefined ? undefined : { tool: 'search_text', args: { query, glob } };
}

function scopeGlob(scope: string): string | undefined {
  const plain = scope.replace(/^\.\//, '');
  if (/[*?{]/.test(plain)) return /^[\w@.+/*?{},-]+$/.test(plain) && !plain.startsWith('/') ? plain : undefined;
  if (/^\*?\.[a-z0-9]{1,8}$/i.test(plain)) return `*.${plain.replace(/^\*?\./, '')}`;
  const byType = typeExtensions[plain.toLowerCase()];
  if (byType) return `*.${byType}`;
  if (plain.startsWith('/') || !(isPathToken(plain) || /^[\w@.+-]+$/.test(plain))) return undefined;
  return isDirectoryToken(plain) ? `${plain.replace(/\/$/, '')}/**` : plain;
}

function readFiles(line: string): ToolAction | undefined {
  const match = new RegExp(
    String.raw`^(?:read|open|show(?:\s+me)?|view|print|cat|display|look\s+at|go\s+through|check\s+out)\s+(?:the\s+)?(?:contents?\s+of\s+(?:the\s+)?)?(?:${fileWords})?(\S.*)$`,
    'i',
  ).exec(line);
  if (!match) return undefined;
  const paths = pathList(match[1]!.replace(/(?<!\s)\s+(?:to|so|for)\s+(?:understand|see|learn|check|find)\b.*$/i, ''));
  if (!paths) return undefined;
  if (paths.length === 1 && isDirectoryToken(paths[0]!)) {
    const listing = globCall(paths[0], undefined);
    return listing ? { calls: [listing], inOrder: false } : undefined;
  }
  if (paths.some(isDirectoryToken)) return undefined;
  return { calls: paths.map((path) => ({ tool: 'read_file', args: { path } })), inOrder: false };
}

/** The paths of "a, b and c" when every item is a path; otherwise `undefined`. */
function pathList(text: string): string[] | undefined {
  const items = text.split(/,(?:\s*and\s+)?|(?<!\s)\s+and\s+/).map((item) => cleanToken(item.trim()));
  if (items.length === 0 || items.some((item) => !isPathToken(item) || item.startsWith('/'))) return undefined;
  return [...new Set(items.map((item) => item.replace(/^\.\//, '')))];
}
