/**
 * `segment` (one name of a path) as Windows opens it: without its trailing dots and spaces (`.git.` and `.env ` open `.git`
 * and `.env` there). A name made only of dots and spaces is returned as it is. Linear in the name's length.
 */
export function windowsName(segment: string): string {
  let end = segment.length;
  // Before the first character `segment[-1]` is undefined, which ends the loop.
  while (segment[end - 1] === '.' || segment[end - 1] === ' ') end--;
  return end === 0 ? segment : segment.slice(0, end);
}
