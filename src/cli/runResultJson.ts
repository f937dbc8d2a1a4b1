import type { RunResult } from '../core/engine/runOptions';
import { capValue } from '../core/text/capText';

/** The most characters `run --json` prints for one run (a JSON text past about 512 million cannot be made at all). */
export const maxRunJsonChars = 64 * 1024 * 1024;

/**
 * `result` as the indented JSON `run --json` prints, at most about `maxChars` characters: when the whole would be
 * longer, each step's result (in `results` and in `steps`) keeps an equal share, cut visibly (`capValue`). A run of 600
 * reads of a 200 kB file had completed and then ended "error" (Invalid string length), its outputs lost.
 */
export function runResultJson(result: RunResult, maxChars = maxRunJsonChars): string {
  // Measured result by result first: the whole of a run far too long is not built only to be thrown away.
  const resultChars = Object.values(result.steps).reduce((sum, step) => sum + (stringified(step.result)?.length ?? 0), 0);
  let text = 2 * resultChars > maxChars ? undefined : stringified(result);
  // Each result appears twice (results and steps); a share counts characters before escaping (a control character is six
  // in JSON), so it halves until the text fits or each result is down to its marker.
  let share = Math.floor(maxChars / 4 / Math.max(1, Object.keys(result.steps).length));
  while (text === undefined || (text.length > maxChars && share > minShare)) {
    share = Math.max(minShare, Math.floor(share / 2));
    text = JSON.stringify(cappedResults(result, share), null, 2);
  }
  // Still too long: what is left is not results (step titles of waiting requests, 2 MB each, twice: attack); every text is cut.
  return text.length <= maxChars ? text : JSON.stringify(capValue(cappedResults(result, share), Math.floor(maxChars / 8)), null, 2);
}

/** The most characters a step's result keeps when the run's JSON is cut. */
const minShare = 64;

function cappedResults(result: RunResult, share: number): RunResult {
  return {
    ...result,
    results: Object.fromEntries(Object.entries(result.results).map(([id, value]) => [id, capValue(value, share)])),
    steps: Object.fromEntries(
      Object.entries(result.steps).map(([id, step]) => [id, step.result === undefined ? step : { ...step, result: capValue(step.result, share) }]),
    ),
  };
}

function stringified(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    // Longer than a string can be.
    return undefined;
  }
}
