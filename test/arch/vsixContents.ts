import type { ZipEntry } from '../support/listZip';

/** Largest `.vsix` the Marketplace page and Open VSX get from us, in bytes (3 MB). */
export const maxVsixBytes = 3_000_000;

/**
 * Every file the package may hold. vsce adds the first two and renames README, CHANGELOG and
 * LICENSE; the rest is what `.vscodeignore` lets through: the manifest and its texts in English
 * and any translation (package.nls[.LANG].json, l10n/bundle.l10n[.LANG].json), the
 * bundles the editor loads, the search's reader thread, the predicates' thread and the tokenizer's tables, the predicate sandbox's WebAssembly, the JSON Schema of plan
 * files, and media (icons, walkthrough pages).
 */
export const vsixAllowlist: readonly RegExp[] = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/,
  /^extension\/package\.nls(\.[a-z]{2,3}(-[a-z0-9]+)*)?\.json$/,
  /^extension\/l10n\/bundle\.l10n(\.[a-z]{2,3}(-[a-z0-9]+)*)?\.json$/,
  /^extension\/readme\.md$/,
  /^extension\/changelog\.md$/,
  /^extension\/LICENSE\.txt$/,
  /^extension\/dist\/(extension|runtime|webview|textSearchWorker|predicateWorker|tokenizer)\.js$/,
  /^extension\/dist\/emscripten-module\.wasm$/,
  /^extension\/dist\/plan\.schema\.json$/,
  /^extension\/media\/[\w-]+\.(svg|png)$/,
  /^extension\/media\/walkthrough\/[\w-]+\.(md|png)$/,
];

/** Files without which the installed extension does not start or has no Marketplace page. */
export const vsixRequired: readonly string[] = [
  'extension/package.json',
  'extension/package.nls.json',
  'extension/l10n/bundle.l10n.json',
  'extension/readme.md',
  'extension/changelog.md',
  'extension/dist/extension.js',
  'extension/dist/runtime.js',
  'extension/dist/webview.js',
  'extension/dist/textSearchWorker.js',
  'extension/dist/predicateWorker.js',
  'extension/dist/tokenizer.js',
  'extension/dist/emscripten-module.wasm',
  'extension/dist/plan.schema.json',
  'extension/media/icon.png',
];

/**
 * What is wrong with a package: each file outside the allowlist, each required file missing,
 * and an archive of `archiveBytes` over `maxVsixBytes`, one sentence each; empty when it is fine.
 * Folder entries (names ending in `/`) are ignored.
 */
export function vsixProblems(entries: readonly ZipEntry[], archiveBytes: number): string[] {
  const names = entries.map((entry) => entry.name).filter((name) => !name.endsWith('/'));
  const problems = names.filter((name) => !vsixAllowlist.some((pattern) => pattern.test(name))).map((name) => `${name} is not on the allowlist`);
  problems.push(...vsixRequired.filter((name) => !names.includes(name)).map((name) => `${name} is missing`));
  if (archiveBytes > maxVsixBytes) problems.push(`the package is ${archiveBytes} bytes, over the ${maxVsixBytes} allowed`);
  return problems;
}
