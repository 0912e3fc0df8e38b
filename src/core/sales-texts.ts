/**
 * The event sales texts a buyer sees. Apart from events.ts (which re-exports them) because that
 * module brings zod, and the landing shows these on the buyer's first load, which has no zod (ADR 0013).
 */

/** Below this many places left, the landing and the event page say how many (SPEC has no wording). */
export const FEW_PLACES_LEFT = 20;

/** What a buyer sees of an event's sales state where it is not simply on sale. */
export const SALES_TEXTS = {
  soldOut: 'Sold out',
  closed: 'Sales closed',
  notYet: (opens: string) => `On sale from ${opens}`,
  left: (left: number) => (left === 1 ? '1 pass left' : `${left} passes left`),
} as const;
