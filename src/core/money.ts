/** SPEC section 9: amounts display as cents divided by 100 with 2 decimals. */
export function formatCents(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
