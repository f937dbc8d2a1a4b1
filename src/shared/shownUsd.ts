/**
 * US dollars for people, one form wherever an amount is shown (an estimate, a budget, what a run
 * spent or saved): `$0` for nothing, two significant digits below a dollar (`$0.0042`, `$0.001`,
 * `$0.012`, `$0.03`, `$0.50`), cents below $10 (`$1.23`), whole dollars above (`$12`); an amount under a millionth of
 * a dollar reads `<$0.000001`, never a `$0.0000` that looks like nothing was spent.
 */
export function shownUsd(usd: number): string {
  if (!(usd > 0)) return '$0';
  if (usd < 0.000001) return '<$0.000001';
  const significant = usd.toPrecision(2);
  // Trailing zeros only where they are cents: `$0.50` and `$0.03`, but `$0.001`.
  if (Number(significant) < 1) {
    let text = significant;
    while (text.endsWith('0') && text.length - text.indexOf('.') > 3) text = text.slice(0, -1);
    return `$${text}`;
  }
  const cents = usd.toFixed(2);
  return Number(cents) < 10 ? `$${cents}` : `$${Math.round(usd)}`;
}
