/**
 * A duration for people, the same in the panel, the Plan tree, notifications and the CLI: `850 ms`, `4.2 s`,
 * `3 min 5 s`, `2 min`. `ms` is in milliseconds; whole seconds are rounded before minutes are counted, so it never
 * says "1 min 60 s".
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const totalSeconds = Math.round(ms / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes} min${seconds > 0 ? ` ${seconds} s` : ''}`;
}
