/** One file of a zip archive (such as a `.vsix`) as its central directory lists it. */
export interface ZipEntry {
  /** Path inside the archive, `/`-separated, such as `extension/dist/extension.js`. */
  name: string;
  /** Uncompressed size in bytes. */
  size: number;
}

const endOfCentralDirectory = 0x06054b50;
const centralDirectoryEntry = 0x02014b50;
/** The end record is 22 bytes plus a comment of at most 65,535 bytes. */
const endRecordSearch = 22 + 0xffff;

/**
 * The files of a zip archive, read from its central directory (what `unzip -l` shows).
 * Throws an Error naming what is wrong when `archive` is not a zip, is cut short, or is a
 * ZIP64 archive (larger than a `.vsix` may be).
 */
export function listZip(archive: Buffer): ZipEntry[] {
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
  const entries: ZipEntry[] = [];
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
