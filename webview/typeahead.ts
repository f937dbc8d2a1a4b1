/** Longest pause between two typed characters of one search, in milliseconds (a native select's is about a second). */
export const typeaheadPauseMs = 1_000;

/** What has been typed into a closed or open list so far, and when the last character came (an event's `timeStamp`). */
export interface TypedPrefix {
  readonly text: string;
  readonly at: number;
}

/**
 * The typed prefix after `key` at `at` (ms, an event's `timeStamp`): appended within `typeaheadPauseMs` of the last
 * character, else a new search. Only a single printable character extends it; anything else gives `undefined`.
 */
export function typedAfter(typed: TypedPrefix | undefined, key: string, at: number): TypedPrefix | undefined {
  if ([...key].length !== 1 || /\p{C}/u.test(key)) return undefined;
  const going = typed !== undefined && at - typed.at <= typeaheadPauseMs;
  return { text: going ? typed.text + key : key, at };
}

/**
 * The option a keyboard user picks by typing `typed`, as a native select does: the first option from the current one on
 * (wrapping) whose text starts with `typed`, case-insensitively. One letter typed again and again (`ttt`) goes through
 * the options starting with it, one a press. `undefined` when none matches (the choice stays as it is).
 */
export function typeaheadPick(options: readonly string[], current: string, typed: string): string | undefined {
  const chars = [...typed.toLowerCase()];
  // One letter, or one letter again and again, goes to the next option starting with it; a longer prefix may still
  // match the option it picked on its way (`w`, then `wr`: write_file stays).
  const cycling = chars.every((char) => char === chars[0]);
  const prefix = cycling ? (chars[0] ?? '') : chars.join('');
  const at = options.indexOf(current);
  const first = cycling ? at + 1 : Math.max(at, 0);
  for (let offset = 0; offset < options.length; offset++) {
    const option = options[(first + offset) % options.length]!;
    if (option.toLowerCase().startsWith(prefix)) return option;
  }
  return undefined;
}
