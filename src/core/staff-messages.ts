/**
 * The staff side's user-facing texts: /auth, the protected-route guard and /admin
 * (SPEC sections 2, 5 and 8). Keep them exactly as the spec words them: they are the product.
 */
export const AUTH_TEXT = {
  title: 'Sign In or Create Account',
  signIn: 'Sign In',
  createAccount: 'Create Account',
  toCreate: "Don't have an account? Create one",
  toSignIn: 'Already have an account? Sign in',
} as const;

export const AUTH_VALIDATION = {
  invalidEmail: 'Please enter a valid email address',
  passwordMin: 'Password must be at least 6 characters long',
  passwordsDoNotMatch: 'Passwords do not match',
} as const;

export const AUTH_NOTICES = {
  alreadyRegistered: 'This email is already registered. Please sign in instead.',
  invalidCredentials: 'Invalid email or password. Please try again.',
  unexpected: 'An unexpected error occurred. Please try again.',
  signUpSuccess: 'Please check your email to confirm your account.',
  signInSuccess: 'Welcome back! You have been signed in successfully.',
  /** No SPEC wording (the spec's accounts were not confirmed by email). A sign-in while unconfirmed mails a new link. */
  notConfirmed: 'Please confirm your email first. We have sent you a new confirmation link.',
  resendConfirmation: 'Send the link again',
  confirmationSent: 'A new confirmation link is on its way.',
} as const;

/** Where a staff member's email confirmation link leads: the sign-in page, which says how it went. */
export const EMAIL_CONFIRMED_PATH = '/auth?confirmed=1';

/** What the sign-in page says after a confirmation link (no SPEC wording: the spec has no such screen). */
export const CONFIRMATION_NOTICES = {
  confirmedTitle: 'Email confirmed',
  confirmedText: 'Your email address is confirmed. Sign in to continue.',
  failedTitle: 'This link did not work',
  failedText: 'The confirmation link has expired or was already used. Sign in with your email and password and we will send you a new one.',
} as const;

export const GUARD_TEXT = {
  loading: 'Loading...',
  accessDeniedTitle: 'Access Denied',
  accessDeniedText: "You don't have permission to access this page. Admin privileges are required.",
  /** No SPEC wording (the spec has no door role): the same refusal for the door's page and endpoints (ADR 0028). */
  doorAccessDeniedText: "You don't have permission to access this page. Door staff or admin privileges are required.",
  goBack: 'Go Back',
} as const;

export const ADMIN_TEXT = {
  title: 'Admin Panel',
  refresh: 'Refresh',
  exportCsv: 'Export CSV',
  signOut: 'Sign Out',
  totalPurchases: 'Total Purchases',
  totalRevenue: 'Total Revenue',
  mostPopularSport: 'Most Popular Sport',
  todaysSales: "Today's Sales",
  notAvailable: 'N/A',
  purchaseRecords: 'Purchase Records',
  loadingPurchases: 'Loading purchases...',
  noPurchases: 'No purchases found',
} as const;

/** The Staff tab's answers (ADR 0028; no SPEC wording: the spec has one admin role set by hand). */
export const STAFF_ROLE_MESSAGES = {
  notVerified: 'This account has not confirmed its email address yet. Ask them to follow the link in the confirmation email, then try again.',
  ownAdminRole: 'You cannot remove your own admin role. Ask another admin to do it.',
  lastAdmin: 'The shop would be left without an admin. Make another account an admin first.',
  notFound: 'No account has this id.',
} as const;

/** The CSV columns and the table columns are the same (SPEC sections 2 and 9). */
export const PURCHASE_COLUMNS = ['Full Name', 'Email', 'Event', 'Sport', 'Amount', 'Order ID', 'Purchase Date'] as const;

export const ADMIN_NOTICES = {
  loadFailed: 'Failed to load purchase data',
  connectFailed: 'Failed to connect to database',
  exportFailed: 'Export Failed',
  exportComplete: 'Export Complete',
} as const;

/**
 * A cookie the server sets beside the staff session (readable by the page, holding no secret):
 * this browser has signed in as staff. Only such a browser loads the header's Admin link and reads
 * the session on the shop's pages; a buyer's first load does neither.
 */
export const STAFF_BROWSER_COOKIE = 'skippass_staff';
