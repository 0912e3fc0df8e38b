import { z } from 'zod';
import { HELD_PURCHASE_REASONS } from '../held-purchases.ts';
import { STAFF_ROLES } from '../staff-roles.ts';
import { adminEndpoint, ERRORS, endpoint, pageOf, pageQuery, timestamp } from './contract.ts';

const SEARCH_CONTROL_CHARACTERS = 'q: the search may not contain control characters or broken characters';

/** A list's optional search text: trimmed, empty means none. */
const searchText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    // PostgreSQL cannot take NUL in a text parameter, nor a lone surrogate; no search needs them.
    .refine((q) => !/[\p{Cc}\p{Cs}]/u.test(q), SEARCH_CONTROL_CHARACTERS)
    .optional()
    .transform((q) => q || undefined);

export const me = endpoint({
  method: 'GET',
  path: '/api/me',
  summary: 'Who is signed in, and their role',
  tag: 'staff',
  access: 'public',
  success: {
    status: 200,
    schema: z
      .object({
        user: z.object({ id: z.string(), email: z.string() }).nullable(),
        role: z.enum(STAFF_ROLES).describe('user: no staff rights; door: the check-in screen only; admin: everything (ADR 0028)'),
        isAdmin: z.boolean().describe('role is admin'),
      })
      .meta({ id: 'Session' }),
    description: 'user is null and role user when nobody is signed in; role user when it cannot be read',
  },
  errors: {},
});

export const statsSchema = z
  .object({
    totalPurchases: z.number().int(),
    totalRevenueCents: z.number().int().describe('What buyers paid, net of refunds (ADR 0015)'),
    mostPopularSport: z.string().nullable(),
    todaysSales: z.number().int().describe('Purchases since midnight in the shop’s time zone'),
    voidedPasses: z.number().int().describe('Passes staff voided (ADR 0015); they still count in totalPurchases'),
    refundedCents: z.number().int().describe('Money given back for voided passes'),
  })
  .meta({ id: 'PurchaseStats' });

export const purchaseStats = adminEndpoint({
  method: 'GET',
  path: '/api/admin/stats',
  summary: 'The stat cards: purchases, revenue, most popular sport, today’s sales',
  tag: 'staff',
  success: { status: 200, schema: statsSchema, description: 'The figures' },
  errors: {},
});

export const purchaseRecordSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    eventName: z.string(),
    eventType: z.string(),
    amountCents: z.number().int(),
    orderId: z.string(),
    createdAt: timestamp,
    voidedAt: timestamp.nullable().describe('When staff voided the pass; null while it is valid'),
    refundedCents: z.number().int().describe('Money given back when it was voided; 0 if none'),
    refundPending: z.boolean().describe('A refund was asked for and the payment provider has not answered yet; the shop asks again until it does'),
    erasedAt: timestamp.nullable().describe('When the buyer’s name and email were erased (both empty since; ADR 0032); null while kept'),
  })
  .meta({ id: 'PurchaseRecord' });

export const listPurchases = adminEndpoint({
  method: 'GET',
  path: '/api/admin/purchases',
  summary: 'Purchases, newest first, optionally searched by name, email, event or order ID',
  tag: 'staff',
  query: z.strictObject({
    ...pageQuery({ limit: 50, max: 200 }),
    q: searchText(100),
  }),
  success: { status: 200, schema: pageOf(purchaseRecordSchema), description: 'One page of purchases' },
  errors: { 400: ERRORS.invalid },
});

/** The random id a page gives an export so it can ask how the download went (ADR 0012). */
const exportId = z.uuid().describe('A random UUID the caller chose for this export');

export const exportPurchases = adminEndpoint({
  method: 'GET',
  path: '/api/admin/purchases.csv',
  summary: 'Every purchase as CSV (SPEC: {product}-purchases-{date}.csv), streamed; with exportId, its outcome is recorded',
  tag: 'staff',
  query: z.strictObject({ exportId: exportId.optional() }),
  success: { status: 200, schema: undefined, contentType: 'text/csv', description: 'The CSV file, as an attachment' },
  errors: {
    400: `${ERRORS.invalid}: exportId is not a UUID`,
    409: 'This exportId was used already (error.code export_id_taken)',
  },
});

export const exportOutcomeSchema = z
  .object({
    status: z
      .enum(['running', 'complete', 'failed'])
      .describe('complete: the server wrote the whole file; failed: it broke off, or its server stopped while writing'),
    rows: z.number().int().nullable().describe('The purchases in the file, once complete'),
    fileName: z.string().describe('The file name the download was given'),
  })
  .meta({ id: 'ExportOutcome' });

export const exportOutcome = adminEndpoint({
  method: 'GET',
  path: '/api/admin/exports/:id',
  summary: 'How a CSV export started with ?exportId= went, for the admin who started it',
  tag: 'staff',
  params: z.strictObject({ id: exportId }),
  success: { status: 200, schema: exportOutcomeSchema, description: 'The export’s outcome so far' },
  errors: {
    400: `${ERRORS.invalid}: the id is not a UUID`,
    404: 'No export of yours has this id, or it has not reached the server yet (error.code not_found)',
  },
});

export const heldPurchaseSchema = z
  .object({
    id: z.number().int(),
    orderId: z.string(),
    reason: z.enum([...HELD_PURCHASE_REASONS, 'other']),
    detail: z.string().nullable().describe('The database’s own words, when the replay kept them'),
    quarantinedAt: timestamp,
    name: z.string().nullable(),
    email: z.string().nullable(),
    eventName: z.string().nullable(),
    amountCents: z.number().int().nullable(),
    purchaseDate: z.string().nullable(),
    hasIdempotencyKey: z.boolean(),
  })
  .meta({ id: 'HeldPurchase' });

export const listHeldPurchases = adminEndpoint({
  method: 'GET',
  path: '/api/admin/quarantined-purchases',
  summary: 'Held purchases: sold and confirmed, but refused by the database on replay',
  tag: 'staff',
  query: z.strictObject(pageQuery({ limit: 50, max: 200 })),
  success: {
    status: 200,
    schema: pageOf(heldPurchaseSchema).extend({ total: z.number().int().describe('How many are held in all') }),
    description: 'One page of held purchases and their total',
  },
  errors: { 400: ERRORS.invalid },
});

/** A staff account as the Staff tab lists it (ADR 0028). */
export const staffAccountSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    emailVerified: z.boolean().describe('Only a verified account may be given staff rights'),
    role: z.enum(STAFF_ROLES),
  })
  .meta({ id: 'StaffAccount' });

export const listStaffAccounts = adminEndpoint({
  method: 'GET',
  path: '/api/admin/staff',
  summary: 'Accounts by email, with whether they verified it and their role; optionally searched by email',
  tag: 'staff',
  query: z.strictObject({
    ...pageQuery({ limit: 50, max: 200 }),
    q: searchText(254),
  }),
  success: { status: 200, schema: pageOf(staffAccountSchema), description: 'One page of accounts' },
  errors: { 400: ERRORS.invalid },
});

export const setStaffRole = adminEndpoint({
  method: 'PUT',
  path: '/api/admin/staff/:id/role',
  summary: 'Give an account a role: no staff rights, door staff or admin. A lowered role ends its sessions; audited',
  tag: 'staff',
  params: z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'id: not an account id') }),
  body: z.strictObject({ role: z.enum(STAFF_ROLES) }),
  success: { status: 200, schema: staffAccountSchema, description: 'The account with its new role' },
  errors: {
    400: ERRORS.invalid,
    404: 'No account has that id (error.code not_found)',
    409: 'The account has not verified its email (error.code email_not_verified), or the change would remove the caller’s own admin role (own_admin_role) or leave the shop without another admin (last_admin)',
  },
});
