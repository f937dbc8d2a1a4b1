/** A box's top and bottom edges, in the viewport's pixels. */
export interface VerticalBox {
  top: number;
  bottom: number;
}

/**
 * How far to scroll the page down (negative: up) so that `form` shows whole between `view`'s edges: the viewport less
 * what is pinned over it (the review's sticky footer with Start, a sticky notice at the top), with `margin` pixels to
 * spare. A form taller than that shows from its top. 0 when it shows whole already.
 */
export function revealScroll(form: VerticalBox, view: VerticalBox, margin = 8): number {
  const top = view.top + margin;
  const bottom = view.bottom - margin;
  if (form.bottom - form.top > bottom - top) return form.top - top;
  if (form.top < top) return form.top - top;
  if (form.bottom > bottom) return form.bottom - bottom;
  return 0;
}
