// The reader thread of `createParallelTextSearcher`: reads the files of each batch it is
// sent and answers which it saw and which hold a match. Started by the pool, never imported.
import * as fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { TextQuery } from '../core/workspacePorts';
import { compileTextQuery, looksBinary } from '../core/tools/textQueryMatcher';
import { normalizeWorkspacePath } from '../core/workspace/resolveInRoot';
import { errorMessage } from '../shared/errorMessage';
import { fileReadFlags, readInto } from './nodeDirectoryFs';
import type { BatchAnswer, ReadBatch } from './parallelTextSearcher';

const directoryFlags = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NONBLOCK;

let buffer = Buffer.allocUnsafe(256 * 1024);
let compiled: { key: string; test: ContentTest } | undefined;

/** What a file's bytes are for the query: binary (skipped by the caller), holding a match, or neither. */
type ContentTest = (bytes: Buffer) => 'binary' | 'match' | 'none';

function contentTestFor(query: TextQuery): ContentTest {
  const key = JSON.stringify(query);
  if (compiled?.key !== key) compiled = { key, test: compileContentTest(query) };
  return compiled.test;
}

/**
 * The query as a test on bytes, deciding as `looksBinary` and `anywhere` decide on the
 * decoded text. A case-sensitive literal is found in the bytes themselves without decoding
 * them: an encoded text starts with no continuation byte, so it is found in the bytes
 * exactly where it is found in the text (a literal holding U+FFFD, which stands for
 * undecodable bytes, is matched on the text). Anything else, and any file holding a NUL,
 * is decoded first.
 */
function compileContentTest(query: TextQuery): ContentTest {
  const matcher = compileTextQuery(query);
  const onText = (bytes: Buffer): 'binary' | 'match' | 'none' => {
    const text = bytes.toString('utf8');
    return looksBinary(text) ? 'binary' : matcher.anywhere(text) ? 'match' : 'none';
  };
  if (query.regex || !query.caseSensitive || query.pattern.includes('\uFFFD')) return onText;
  const needle = Buffer.from(query.pattern, 'utf8');
  return (bytes) => (bytes.includes(0) ? onText(bytes) : bytes.includes(needle) ? 'match' : 'none');
}

/**
 * Reads one batch. A directory is read from only when the kernel says the opened
 * descriptor is exactly `realRoot/dir` (no link on the way, nothing swapped since the
 * listing), and a file only when it is a regular file with one link, not itself a link,
 * within `maxBytes`; anything else is left unseen, for the caller's own confined reader.
 */
function readBatch(batch: ReadBatch): BatchAnswer {
  const test = contentTestFor(batch.query);
  const seen: number[] = [];
  const matched: number[] = [];
  let index = 0;
  for (const [directory, names] of batch.directories) {
    const first = index;
    index += names.length;
    const expected = directory === '' ? batch.realRoot : `${batch.realRoot === '/' ? '' : batch.realRoot}/${directory}`;
    let directoryFd: number;
    try {
      directoryFd = fs.openSync(expected, directoryFlags);
    } catch {
      continue;
    }
    try {
      const prefix = `/proc/self/fd/${directoryFd}`;
      if (fs.readlinkSync(prefix) !== expected) continue;
      names.forEach((name, offset) => {
        // A name the caller's reader refuses, or would read as another path, is left to it: its counts stay the reader's.
        if (!isWorkspacePath(directory === '' ? name : `${directory}/${name}`)) return;
        const bytes = readFile(`${prefix}/${name}`, batch.maxBytes);
        if (bytes === undefined) return;
        const found = test(bytes);
        // A binary file is the caller's to skip, as its reader tells them.
        if (found === 'binary') return;
        seen.push(first + offset);
        if (found === 'match') matched.push(first + offset);
      });
    } finally {
      fs.closeSync(directoryFd);
    }
  }
  return { id: batch.id, seen, matched };
}

function isWorkspacePath(relative: string): boolean {
  try {
    return normalizeWorkspacePath(relative) === relative;
  } catch {
    return false;
  }
}

/** The bytes of the regular file `entry` (a view of the shared buffer, valid until the next read); `undefined` for anything else. */
function readFile(entry: string, maxBytes: number): Buffer | undefined {
  let fd: number;
  try {
    fd = fs.openSync(entry, fileReadFlags);
  } catch {
    return undefined;
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile() || stats.nlink !== 1 || stats.size > maxBytes) return undefined;
    if (buffer.length < stats.size) buffer = Buffer.allocUnsafe(stats.size);
    return buffer.subarray(0, readInto(fd, buffer, stats.size));
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

parentPort?.on('message', (batch: ReadBatch) => {
  let answer: BatchAnswer;
  try {
    answer = readBatch(batch);
  } catch (error) {
    answer = { id: batch.id, error: errorMessage(error) };
  }
  parentPort?.postMessage(answer);
});
