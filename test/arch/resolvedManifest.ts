import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './importGraph';

/** The English strings of the manifest: `package.nls.json`, key to text. */
export function readManifestStrings(): Record<string, string> {
  return JSON.parse(readFileSync(join(projectRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
}

/**
 * `package.json` as VS Code shows it in English: every string value that is exactly a
 * `%key%` replaced by its text in `package.nls.json` (a key without a text stays as it is,
 * for the localization test to name).
 */
export function readResolvedManifest(): unknown {
  const strings = readManifestStrings();
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const key = /^%(.+)%$/.exec(value)?.[1];
      return key !== undefined && key in strings ? strings[key] : value;
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolve(inner)]));
    return value;
  };
  return resolve(JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')));
}
