// The reader thread of `createParallelTextSearcher`: reads the files of each batch it is
// sent and answers which it saw and which hold a match. Started by the pool, never imported.
import * as fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { TextQuery } from '../core/ports';
import { compileTextQuery, looksBinary, type QueryMatcher } from '../core/tools/textQueryMatcher';
import { errorMessage } from '../shared/errorMessage';
import type { BatchAnswer, ReadBatch } from './parallelTextSearcher';

const directoryFlags = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NONBLOCK;
// Non-blocking (a pipe cannot hang it) and never through a link.
const fileFlags = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW;

let buffer = Buffer.allocUnsafe(256 * 1024);
let compiled: { key: string; matcher: QueryMatcher } | undefined;

function matcherFor(query: TextQuery): QueryMatcher {
  const key = JSON.stringify(query);
  if (compiled?.key !== key) compiled = { key, matcher: compileTextQuery(query) };
  return compiled.matcher;
}

/**
 * Reads one batch. A directory is read from only when the kernel says the opened
 * descriptor is exactly `realRoot/dir` (no link on the way, nothing swapped since the
 * listing), and a file only when it is a regular file with one link, not itself a link,
 * within `maxBytes`; anything else is left unseen, for the caller's own confined reader.
 */
function readBatch(batch: ReadBatch): BatchAnswer {
  const matcher = matcherFor(batch.query);
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
        const text = readFile(`${prefix}/${name}`, batch.maxBytes);
        // A binary file is the caller's to skip, as its reader tells them.
        if (text === undefined || looksBinary(text)) return;
        seen.push(first + offset);
        if (matcher.anywhere(text)) matched.push(first + offset);
      });
    } finally {
      fs.closeSync(directoryFd);
    }
  }
  return { id: batch.id, seen, matched };
}

function readFile(entry: string, maxBytes: number): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(entry, fileFlags);
  } catch {
    return undefined;
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile() || stats.nlink !== 1 || stats.size > maxBytes) return undefined;
    if (buffer.length < stats.size) buffer = Buffer.allocUnsafe(stats.size);
    let filled = 0;
    while (filled < stats.size) {
      const count = fs.readSync(fd, buffer, filled, stats.size - filled, filled);
      if (count === 0) break;
      filled += count;
    }
    return buffer.toString('utf8', 0, filled);
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
