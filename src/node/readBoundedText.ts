import { open } from 'node:fs/promises';

const chunkBytes = 64 * 1024;

/**
 * The UTF-8 text of the file at `path` (links followed: a file the user named), or
 * `undefined` once more than `maxBytes` bytes were read (too large). The bytes actually read are
 * counted, never the size the file claims, so a device such as /dev/zero or a pipe that never
 * ends costs at most `maxBytes + 1` bytes; a pipe is read as it comes (process substitution,
 * `<(…)`, works). Rejects with the file system's error when it cannot be opened or read.
 */
export async function readBoundedText(path: string, maxBytes: number): Promise<string | undefined> {
  const file = await open(path, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(Math.min(chunkBytes, maxBytes + 1 - total));
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return Buffer.concat(chunks, total).toString('utf8');
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return undefined;
    }
  } finally {
    await file.close();
  }
}
