/** SPEC section 9: money is counted in cents; dollars exist only where a person reads an amount. */
export function dollarsOf(cents: number): number {
  return cents / 100;
}

/** SPEC section 9: amounts display as cents divided by 100 with 2 decimals. */
export function formatCents(cents: number): string {
  return formatDollars(dollarsOf(cents));
}

/** The display of an amount already in dollars (the buyer's Pass holds `amount: 3`). */
export function formatDollars(dollars: number): string {
  return `$${dollars.toFixed(2)}`;
}
