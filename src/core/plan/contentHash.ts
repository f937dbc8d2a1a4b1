import { createHash } from 'node:crypto';

/**
 * A short, stable hash of `text` (the first 8 hex digits of its SHA-1): ids for plans
 * that arrive without one. Not for security.
 */
export function contentHash(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 8);
}
