import { parseDocument } from 'yaml';
import { capabilityLimits } from './capabilityCatalogue';

/**
 * A Markdown file split into its YAML front matter and its body. `fields` is `undefined`
 * when the file has no front matter; `problem` says, in the user's words, why the front
 * matter that is there cannot be used (then `fields` is `undefined` too).
 */
export interface FrontMatter {
  fields: Record<string, unknown> | undefined;
  problem?: string;
  body: string;
}

const opening = /^\uFEFF?---[ \t]*\r?\n/;
const closing = /^(?:---|\.\.\.)[ \t]*\r?$/m;

/**
 * Splits `text` at its front matter (a first line `---`, YAML, a line `---` or `...`) and
 * parses the YAML with the `yaml` library: strict, unique keys, no aliases (a YAML bomb of
 * nested aliases is refused, not expanded), no custom tags, at most
 * `capabilityLimits.maxFrontMatterChars` characters. The front matter must be a mapping.
 * Never throws.
 */
export function parseFrontMatter(text: string): FrontMatter {
  const start = opening.exec(text);
  if (!start) return { fields: undefined, body: text };
  const rest = text.slice(start[0].length);
  const end = closing.exec(rest);
  if (!end) return { fields: undefined, problem: 'its front matter has no closing "---" line', body: text };
  const yamlText = rest.slice(0, end.index);
  const body = rest.slice(end.index + end[0].length).replace(/^\r?\n/, '');
  if (yamlText.length > capabilityLimits.maxFrontMatterChars) {
    return { fields: undefined, problem: `its front matter is longer than ${capabilityLimits.maxFrontMatterChars} characters`, body };
  }
  const document = parseDocument(yamlText, { uniqueKeys: true, strict: true, prettyErrors: false, schema: 'core' });
  const [error] = document.errors;
  if (error !== undefined) return { fields: undefined, problem: `its front matter is not valid YAML (${firstLine(error.message)})`, body };
  const [warning] = document.warnings;
  if (warning !== undefined) {
    return { fields: undefined, problem: `its front matter uses YAML this reader does not accept (${firstLine(warning.message)})`, body };
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 0 });
  } catch {
    return { fields: undefined, problem: 'its front matter uses YAML aliases (*name); write the values out instead', body };
  }
  if (value === null || value === undefined) return { fields: {}, body };
  if (typeof value !== 'object' || Array.isArray(value)) return { fields: undefined, problem: 'its front matter is not a list of "key: value" fields', body };
  return { fields: value as Record<string, unknown>, body };
}

function firstLine(message: string): string {
  const line = message.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
