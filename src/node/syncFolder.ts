import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** Flushes `dir`'s entries to the disk. Windows opens no folder as a file, and NTFS journals names itself. */
export async function syncFolder(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
