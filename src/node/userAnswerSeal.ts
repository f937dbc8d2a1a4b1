import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AnswerSeal } from '../core/runStorePorts';
import { userCacheFolder } from './userCacheFolder';

/** Where the user's key of answer seals is kept: `~/.cache/task-planner/answer-key`, outside every workspace. */
export function userAnswerKeyFile(): string {
  return join(userCacheFolder(), 'answer-key');
}

/** Bytes of a key. */
const keyBytes = 32;

/**
 * The user's `AnswerSeal`: an HMAC-SHA256 under the key in `file` (made on first use, 32 random bytes readable by the
 * user alone), the same for every Task Planner process of the user, so a run resumed by another process (a second
 * `task-planner resume`, a window reloaded) takes back the answers the user gave, and none a journal's writer made up.
 * Where the key cannot be read or made, a key of this process alone: answers journaled by other processes then ask again.
 */
export function createUserAnswerSeal(file = userAnswerKeyFile()): AnswerSeal {
  let key: Buffer | undefined;
  return {
    mac(text) {
      key ??= userKey(file);
      return createHmac('sha256', key).update(text).digest('hex');
    },
  };
}

function userKey(file: string): Buffer {
  const existing = readKey(file);
  if (existing) return existing;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(keyBytes), { flag: 'wx', mode: 0o600 });
  } catch {
    // Made by another process that same moment (read below), or not makeable: this process's own key.
  }
  return readKey(file) ?? randomBytes(keyBytes);
}

/** The key in `file`, or `undefined` when there is none of the right size. */
function readKey(file: string): Buffer | undefined {
  try {
    const key = readFileSync(file);
    return key.length === keyBytes ? key : undefined;
  } catch {
    return undefined;
  }
}
