import { createHash } from 'node:crypto';
import type { ExpectedContent, RawDirectoryFs } from '../workspacePorts';
import { WorkspaceError } from './workspaceError';

/** sha256 (hex) of `bytes`. */
export function sha256OfBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** `true` when `actual` is the version `expected` names. */
export function isExpectedContent(actual: ExpectedContent, expected: ExpectedContent): boolean {
  return actual.exists ? expected.exists && expected.sha256 === actual.sha256 : !expected.exists;
}

/** The refusal of a change whose file is no longer the version it was computed from. */
export function changedMeanwhileError(input: string, relative: string): WorkspaceError {
  return new WorkspaceError(
    'changed',
    input,
    `${relative} changed after its new content was computed (another step, another run or another program wrote it); nothing was changed. Read it again and compute the change against what it holds now.`,
  );
}

/**
 * Rejects with `changedMeanwhileError` unless the entry `name` of `directory` is the
 * version `expected` names. What is not a regular file there (a directory, a link swapped
 * in, a device) is never the expected version. Nothing is checked without `expected`.
 */
export async function checkExpectedContent<Handle>(
  raw: RawDirectoryFs<Handle>,
  directory: Handle,
  name: string,
  expected: ExpectedContent | undefined,
  input: string,
  relative: string,
): Promise<void> {
  if (expected === undefined) return;
  if (!isExpectedContent(await versionOf(raw, directory, name), expected)) throw changedMeanwhileError(input, relative);
}

async function versionOf<Handle>(raw: RawDirectoryFs<Handle>, directory: Handle, name: string): Promise<ExpectedContent> {
  const file = await raw.openFile(directory, name);
  if (file === 'missing') return { exists: false };
  // No hash names a link or a device: neither is the file the change was computed from.
  // Stryker disable next-line StringLiteral: any text that is no sha256 in hex names it, the empty one too.
  if (file === 'link') return { exists: true, sha256: 'a link' };
  try {
    // Stryker disable next-line StringLiteral: any text that is no sha256 in hex names it, the empty one too.
    if (file.stat.type !== 'file') return { exists: true, sha256: `a ${file.stat.type}` };
    return { exists: true, sha256: sha256OfBytes(await file.readBytes()) };
  } finally {
    await file.close();
  }
}
