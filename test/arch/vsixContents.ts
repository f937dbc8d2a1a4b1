/** One file of a `.vsix` (a zip archive) as its central directory lists it. */
export interface VsixEntry {
  /** Path inside the archive, `/`-separated, such as `extension/dist/extension.js`. */
  name: string;
  /** Uncompressed size in bytes. */
  size: number;
}

/** Largest `.vsix` the Marketplace page and Open VSX get from us, in bytes (3 MB). */
export const maxVsixBytes = 3_000_000;

/**
 * Every file the package may hold. vsce adds the first two and renames README, CHANGELOG and
 * LICENSE; the rest is what `.vscodeignore` lets through: the manifest, the three bundles the
 * editor loads, the predicate sandbox's WebAssembly, and media (icons, walkthrough pages).
 */
export const vsixAllowlist: readonly RegExp[] = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/,
  /^extension\/readme\.md$/,
  /^extension\/changelog\.md$/,
  /^extension\/LICENSE\.txt$/,
  /^extension\/dist\/(extension|runtime|webview)\.js$/,
  /^extension\/dist\/emscripten-module\.wasm$/,
  /^extension\/media\/[\w-]+\.(svg|png)$/,
  /^extension\/media\/walkthrough\/[\w-]+\.(md|png)$/,
];

/** Files without which the installed extension does not start or has no Marketplace page. */
export const vsixRequired: readonly string[] = [
  'extension/package.json',
  'extension/readme.md',
  'extension/changelog.md',
  'extension/dist/extension.js',
  'extension/dist/runtime.js',
  'extension/dist/webview.js',
  'extension/dist/emscripten-module.wasm',
  'extension/media/icon.png',
];

const endOfCentralDirectory = 0x06054b50;
const centralDirectoryEntry = 0x02014b50;
/** The end record is 22 bytes plus a comment of at most 65,535 bytes. */
const endRecordSearch = 22 + 0xffff;

/**
 * The files of a zip archive, read from its central directory (what `unzip -l` shows).
 * Throws an Error naming what is wrong when `archive` is not a zip, is cut short, or is a
 * ZIP64 archive (larger than a `.vsix` may be).
 */
export function listZip(archive: Buffer): VsixEntry[] {
  let end = -1;
  for (let at = archive.length - 22; at >= Math.max(0, archive.length - endRecordSearch); at--) {
    if (archive.readUInt32LE(at) === endOfCentralDirectory) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip archive: no end of central directory record');
  const count = archive.readUInt16LE(end + 10);
  const directorySize = archive.readUInt32LE(end + 12);
  const directoryStart = archive.readUInt32LE(end + 16);
  if (count === 0xffff || directoryStart === 0xffffffff) throw new Error('a ZIP64 archive: far larger than a .vsix may be');
  if (directoryStart + directorySize > end) throw new Error('the central directory lies outside the archive: it is cut short or damaged');
  const entries: VsixEntry[] = [];
  let at = directoryStart;
  for (let index = 0; index < count; index++) {
    if (at + 46 > end || archive.readUInt32LE(at) !== centralDirectoryEntry) throw new Error(`central directory entry ${index + 1} of ${count} is damaged`);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    entries.push({ name: archive.toString('utf8', at + 46, at + 46 + nameLength), size });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * What is wrong with a package: each file outside the allowlist, each required file missing,
 * and an archive of `archiveBytes` over `maxVsixBytes`, one sentence each; empty when it is fine.
 * Folder entries (names ending in `/`) are ignored.
 */
export function vsixProblems(entries: readonly VsixEntry[], archiveBytes: number): string[] {
  const names = entries.map((entry) => entry.name).filter((name) => !name.endsWith('/'));
  const problems = names.filter((name) => !vsixAllowlist.some((pattern) => pattern.test(name))).map((name) => `${name} is not on the allowlist`);
  problems.push(...vsixRequired.filter((name) => !names.includes(name)).map((name) => `${name} is missing`));
  if (archiveBytes > maxVsixBytes) problems.push(`the package is ${archiveBytes} bytes, over the ${maxVsixBytes} allowed`);
  return problems;
}
