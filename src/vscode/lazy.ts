/** A value made on first call and returned from then on: keeps heavy objects out of activation. */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
