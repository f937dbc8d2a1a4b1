import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AnswerSeal } from '../runStorePorts';
import type { SuppliedAnswer, SuppliedAnswers } from './runEvents';

/**
 * A seal under a key of this process alone: answers journaled by any other process are never taken back (the bare
 * environment's, for a library user who gives none; a resumed step then asks again).
 */
export function processAnswerSeal(): AnswerSeal {
  processKey ??= randomBytes(32);
  const key = processKey;
  return { mac: (text) => createHmac('sha256', key).update(text).digest('hex') };
}

/** The key of `processAnswerSeal`, one for the process (made on first use). */
let processKey: Buffer | undefined;

/** `supplied` (the answers a resume of run `runId` gives) each sealed under `seal`, as they are journaled. */
export function sealAnswers(runId: string, supplied: SuppliedAnswers, seal: AnswerSeal): SuppliedAnswers {
  return Object.fromEntries(Object.entries(supplied).map(([id, answer]) => [id, { ...answer, seal: seal.mac(sealedText(runId, id, answer)) }]));
}

/**
 * The answers of `supplied` (as a journal of run `runId` holds them) whose seal `seal` made for that run, that request
 * and that very answer; an answer without one, or whose seal was made for anything else, is dropped, and its request
 * asks again.
 */
export function trustedAnswers(runId: string, supplied: SuppliedAnswers, seal: AnswerSeal): SuppliedAnswers {
  return Object.fromEntries(
    Object.entries(supplied).filter(([id, answer]) => answer.seal !== undefined && sameCode(answer.seal, seal.mac(sealedText(runId, id, answer)))),
  );
}

/** What a seal covers: the run, the request id, and the answer (without its seal), in one canonical text. */
function sealedText(runId: string, id: string, answer: SuppliedAnswer): string {
  const { seal: _seal, ...sealed } = answer;
  return canonicalJson({ runId, id, answer: sealed });
}

/**
 * `value` as JSON with the keys of every object sorted and its undefined fields left out, so that a journal's round trip
 * (or a field written in another order) gives the same text. A forged answer's odd values (`null`, an array) are written too.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const fields = value as Record<string, unknown>;
  const keys = Object.keys(fields).filter((key) => fields[key] !== undefined).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(fields[key])}`).join(',')}}`;
}

function sameCode(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
