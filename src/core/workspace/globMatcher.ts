import { RE2JS } from 're2js';
import { PathRefusedError } from './resolveInRoot';

/**
 * Compiles a workspace glob into a predicate over workspace-relative `/`-separated paths.
 * Supports `*` (within a segment), `**` (any number of segments), `?`, `[abc]`/`[!abc]`,
 * `{a,b}` and `\` escapes. A glob without `/` matches the file name at any depth (as in
 * `.gitignore` and ripgrep's `--glob`), so `*.ts` finds every TypeScript file. Refuses
 * (with `PathRefusedError`) absolute globs and globs with `..` segments. Matches on RE2
 * (`re2js`), in time linear in the path: a glob comes from a model and a path from the
 * repository, and on a backtracking engine `*a*a*a*a*a*a*b` over a file name of 60 `a`s never
 * ended.
 */
export function compileGlob(glob: string): (relativePath: string) => boolean {
  const trimmed = glob.trim();
  if (trimmed === '' || trimmed === '**' || trimmed === '**/*') return () => true;
  if (trimmed.startsWith('/') || /^[a-zA-Z]:/.test(trimmed) || trimmed.startsWith('\\\\')) {
    throw new PathRefusedError(glob, 'a glob must be relative to the workspace root');
  }
  if (trimmed.split('/').some((segment) => segment === '..')) throw new PathRefusedError(glob, 'a glob must not climb out with ".."');
  const pattern = trimmed.replace(/^\.\//, '');
  const regex = compiled(glob, globToRegexSource(pattern));
  if (!pattern.includes('/')) return (relativePath) => regex.matches(relativePath.slice(relativePath.lastIndexOf('/') + 1));
  return (relativePath) => regex.matches(relativePath);
}

function globToRegexSource(glob: string): string {
  let source = '';
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === '\\' && i + 1 < glob.length) {
      source += escapeRegex(glob[++i] as string);
    } else if (char === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
        i++;
        if (atStart && glob[i + 1] === '/') {
          source += '(?:[^/]*/)*';
          i++;
        } else if (atStart && atEnd) {
          source += '.*';
        } else {
          source += '[^/]*';
        }
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        source += '\\[';
      } else {
        let body = glob.slice(i + 1, close);
        const negated = body.startsWith('!') || body.startsWith('^');
        if (negated) body = body.slice(1);
        source += `[${negated ? '^/' : ''}${body.replace(/[\\\]^[]/g, '\\$&')}]`;
        i = close;
      }
    } else if (char === '{') {
      braceDepth++;
      source += '(?:';
    } else if (char === '}' && braceDepth > 0) {
      braceDepth--;
      source += ')';
    } else if (char === ',' && braceDepth > 0) {
      source += '|';
    } else {
      source += escapeRegex(char);
    }
  }
  if (braceDepth > 0) throw new PathRefusedError(glob, 'the glob has an unclosed "{"');
  return source;
}

/** The whole-path pattern of `source` on RE2; a class RE2 cannot take (a range `[z-a]`) refuses the glob, saying so. */
function compiled(glob: string, source: string): RE2JS {
  try {
    return RE2JS.compile(source, RE2JS.DOTALL);
  } catch (error: unknown) {
    throw new PathRefusedError(glob, `the glob cannot be read (${error instanceof Error ? error.message : String(error)}); check its [...] classes and braces`);
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
