/**
 * Every user-facing text of SPEC sections 2, 5 and 8 that more than one module needs.
 * Keep them exactly as the spec words them: they are the product.
 */
export const VALIDATION = {
  fillAllFields: 'Please fill in all fields',
  invalidEmail: 'Invalid email address',
  nameAndEventMin: 'Name and event name must be at least 2 characters long',
  nameMax: 'Name must be at most 100 characters long',
  emailMax: 'Email must be at most 254 characters long',
  eventNameMax: 'Event name must be at most 100 characters long',
  contactInvalidEmail: 'Please enter a valid email address',
  contactNameMin: 'Name must be at least 2 characters long',
} as const;

export const NOTICES = {
  paymentSuccessTitle: 'Payment successful!',
  paymentSuccessText: 'Your skip pass has been confirmed.',
  paymentFailedTitle: 'Payment failed',
  paymentFailedText: 'Please try again',
  saveWarningTitle: 'Warning',
  saveWarningText: "Purchase completed but couldn't save to database",
  contactSuccessTitle: 'Success!',
  contactSuccessText: 'Confirmation email sent successfully!',
  contactErrorTitle: 'Error',
  contactErrorFallback: 'Failed to send confirmation email',
} as const;

/** Texts of API errors that have no spec wording. */
export const API_ERRORS = {
  paymentFailed: 'Payment failed. Please try again',
  contactTooSoon: 'A confirmation email was just sent to this address. Please wait a minute before trying again.',
  contactTooMany: 'Too many confirmation emails were sent to this address. Please try again later.',
  tooManyConfirmations: 'Too many passes were bought for this email address in a short time. Please wait 10 minutes and try again.',
  tooManyRequests: 'Too many requests. Please wait a minute and try again.',
  idempotencyKeyReused: 'This Idempotency-Key was already used with a different request.',
  idempotencyInProgress: 'A request with this Idempotency-Key is still being processed. Retry in a moment.',
  invalidIdempotencyKey: 'The Idempotency-Key header must be 1 to 255 visible characters.',
  invalidJson: 'The request body is not valid JSON.',
  jsonTooDeep: 'The request body is nested too deeply.',
  unreadableRequest: 'The request could not be read.',
  requestTimeout: 'The request took too long to arrive.',
  headersTooLarge: 'The request headers are too large.',
  bodyTooLarge: 'The request body is too large.',
  unsupportedMediaType: 'Send the request body as application/json.',
  notFound: 'Not found.',
  internal: 'Something went wrong on our side. Please try again.',
  unavailable: 'The shop is temporarily unavailable. Please try again in a moment.',
  soldOut: 'Sorry, this event is sold out.',
  salesClosed: 'Sales for this event have closed.',
  salesNotOpen: 'Sales for this event have not opened yet.',
} as const;

/** Texts of the browser app that have no spec wording. */
export const APP_NOTICES = {
  loadFailed: 'This part of the shop could not be loaded. Check your connection and try again.',
} as const;
