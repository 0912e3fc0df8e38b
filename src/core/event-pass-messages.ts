/**
 * The texts of the older event-specific purchase view (SPEC sections 2 and 8). Keep them exactly
 * as the spec words them: they are the product.
 */
export const EVENT_PASS_TEXT = {
  pay: 'Pay',
  processing: 'Processing...',
  purchaseSuccess: 'Purchase successful! Check your email for confirmation details.',
  passConfirmed: 'Pass Confirmed',
  eventNotFound: 'Event not found',
} as const;
