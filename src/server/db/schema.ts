import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  type PgColumnBuilderBase,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

/** Every time column: timestamptz, read as a Date. */
const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Code points a 100-character text column holds. The app counts what a reader sees (grapheme
 * clusters, src/core/text-length.ts) and refuses more than this many code points, so whatever passes
 * validation is storable.
 */
export const TEXT_COLUMN_MAX = 400;

/** SPEC section 3: one row per pass sold. order_id is the pass ID the buyer holds. */
export const purchases = pgTable(
  'purchases',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // Limits count characters as a reader does (SPEC 100): one character on screen may be several
    // code points (an emoji sequence, a letter with accents), so the columns hold TEXT_COLUMN_MAX.
    name: varchar('name', { length: TEXT_COLUMN_MAX }).notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    eventName: varchar('event_name', { length: TEXT_COLUMN_MAX }).notNull(),
    eventType: text('event_type').notNull().default('general'),
    amount: integer('amount').notNull(),
    orderId: varchar('order_id', { length: 10 }).notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** Set when bought through an event's own page; home-flow passes are valid for all events. */
    eventId: bigint('event_id', { mode: 'number' }).references(() => events.id),
    /** When the buyer's name and email were erased (ADR 0032): both are '' from then on, the rest stays. */
    erasedAt: timestamptz('erased_at'),
  },
  (table) => [
    uniqueIndex('purchases_order_id_key').on(table.orderId),
    // The admin list and the export read newest first by (created_at, id), today's sales a created_at
    // range. Ascending on purpose: read backwards it yields ORDER BY ... DESC (nulls first, PostgreSQL's
    // default), which a DESC NULLS LAST index cannot serve without a sort of the whole table.
    index('purchases_created_at_id_idx').on(table.createdAt, table.id),
    // Most Popular Sport groups by event type.
    index('purchases_event_type_idx').on(table.eventType),
    // Find my pass: an address's newest passes, whatever the letter case it was typed in.
    index('purchases_lower_email_created_at_idx').on(sql`lower(${table.email})`, table.createdAt),
    // The sales chart sums amounts per hour or day of a created_at range: an index-only scan.
    index('purchases_created_at_amount_idx').on(table.createdAt, table.amount),
    // Each event's passes sold (the events admin), among millions of home passes without one.
    index('purchases_event_id_idx').on(table.eventId).where(sql`${table.eventId} is not null`),
    // The retention job's two queues (ADR 0032): passes of an event, and Any Event Passes by date.
    index('purchases_unerased_event_id_idx').on(table.eventId).where(sql`${table.erasedAt} is null and ${table.eventId} is not null`),
    index('purchases_unerased_home_created_at_idx').on(table.createdAt).where(sql`${table.erasedAt} is null and ${table.eventId} is null`),
    check('purchases_amount_not_negative', sql`${table.amount} >= 0`),
    check('purchases_order_id_format', sql`${table.orderId} ~ '^[0-9A-F]{10}$'`),
  ],
);

/**
 * Running totals of purchases per event type, so the stat cards cost the same at ten rows or ten
 * million. Kept by statement-level triggers on purchases (migration 0004), never written by the app.
 * Each database connection adds to its own shard (pg_backend_pid() % 16), so concurrent purchase
 * transactions do not queue on one counter row; readers sum the shards.
 */
export const purchaseTotals = pgTable(
  'purchase_totals',
  {
    eventType: text('event_type').notNull(),
    shard: smallint('shard').notNull(),
    purchases: bigint('purchases', { mode: 'number' }).notNull(),
    revenueCents: bigint('revenue_cents', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.eventType, table.shard] })],
);

/**
 * Mail waiting to leave. Written in the same transaction as what caused it, so a purchase
 * and its confirmation email exist together or not at all. (kind, ref) makes a second
 * confirmation for the same purchase impossible.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    ref: text('ref').notNull(),
    recipient: varchar('recipient', { length: 254 }).notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    sentAt: timestamptz('sent_at'),
    /** When recipient and payload were erased (ADR 0032): recipient '' and payload {} from then on. */
    erasedAt: timestamptz('erased_at'),
  },
  (table) => [
    uniqueIndex('outbox_kind_ref_key').on(table.kind, table.ref),
    index('outbox_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    // Staff read the newest messages first (created_at DESC, id DESC): a backward scan of this index.
    index('outbox_created_at_id_idx').on(table.createdAt, table.id),
    // Failed messages are few among millions sent; staff list them apart ("Failed only").
    index('outbox_failed_created_at_id_idx').on(table.createdAt, table.id).where(sql`${table.status} = 'failed'`),
    check('outbox_status_known', sql`${table.status} in ('pending', 'sent', 'failed')`),
    // Mail past the retention, oldest first, among the rows not erased yet (ADR 0032).
    index('outbox_unerased_created_at_idx').on(table.createdAt).where(sql`${table.erasedAt} is null`),
  ],
);

/**
 * Idempotency-Key records for POST /api/purchases: a retry with the same key returns the
 * stored response. Rows live at least 24 hours (expires_at), then a sweeper removes them.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    key: text('key').primaryKey(),
    fingerprint: text('fingerprint').notNull(),
    /** Set when the first request finished; null while it is still in progress. */
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    lockedUntil: timestamptz('locked_until').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    /**
     * The event whose place this claim holds (unfinished) or whose place its purchase took
     * (finished); counted in events.taken. A purchase without a key gets a claim of its own.
     * No foreign key: the purchase gate writes it only for an event it found, and a key check
     * would lock the busiest row of a rush once more per purchase (ADR 0033).
     */
    eventId: bigint('event_id', { mode: 'number' }),
  },
  (table) => [
    index('idempotency_keys_expires_at_idx').on(table.expiresAt),
    // The sweep of holds whose process died: unfinished claims on a place, by lease.
    index('idempotency_keys_lapsed_holds_idx').on(table.lockedUntil).where(sql`${table.responseStatus} is null and ${table.eventId} is not null`),
  ],
);

/** Requests from the Get in Touch form; also the record the per-address mail limits count. */
export const contactRequests = pgTable(
  'contact_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: varchar('name', { length: TEXT_COLUMN_MAX }).notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    clientIp: text('client_ip'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** When name, email and client IP were erased (ADR 0032). */
    erasedAt: timestamptz('erased_at'),
  },
  (table) => [
    index('contact_requests_email_created_at_idx').on(sql`lower(${table.email})`, table.createdAt),
    index('contact_requests_unerased_created_at_idx').on(table.createdAt).where(sql`${table.erasedAt} is null`),
  ],
);

/* Staff accounts, managed by better-auth. Property names are the ones better-auth asks for. */

const authTimestamps = {
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
};

/**
 * A better-auth table: its text id, the columns better-auth asks for, the two timestamps, and an
 * index on the column it looks rows up by, if it has one.
 */
function authTable<Name extends string, Columns extends Record<string, PgColumnBuilderBase>>(
  name: Name,
  columns: Columns,
  lookupBy?: keyof Columns & string,
) {
  return pgTable(name, { id: text('id').primaryKey(), ...columns, ...authTimestamps }, (table) =>
    lookupBy ? [index(`${name}_${table[lookupBy].name}_idx`).on(table[lookupBy])] : [],
  );
}

/** The staff account a row belongs to: deleting the account deletes the row. */
const ownedByUser = () => text('user_id').notNull().references(() => authUsers.id, { onDelete: 'cascade' });

export const authUsers = authTable('auth_users', {
  name: text('name').notNull(),
  email: varchar('email', { length: 254 }).notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
});

export const authSessions = authTable(
  'auth_sessions',
  {
    token: text('token').notNull().unique(),
    userId: ownedByUser(),
    expiresAt: timestamptz('expires_at').notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
  },
  'userId',
);

export const authAccounts = authTable(
  'auth_accounts',
  {
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: ownedByUser(),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamptz('access_token_expires_at'),
    refreshTokenExpiresAt: timestamptz('refresh_token_expires_at'),
    scope: text('scope'),
    password: text('password'),
  },
  'userId',
);

export const authVerifications = authTable(
  'auth_verifications',
  {
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  'identifier',
);

/** SPEC section 3: a user's role; 'admin' grants the admin panel. */
export const profiles = pgTable('profiles', {
  userId: text('user_id')
    .primaryKey()
    .references(() => authUsers.id, { onDelete: 'cascade' }),
  role: text('role').notNull().default('user'),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/** Events staff create; the event page sells passes for one, and the door admits passes to one. */
export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    title: varchar('title', { length: TEXT_COLUMN_MAX }).notNull(),
    startsAt: timestamptz('starts_at').notNull(),
    location: varchar('location', { length: 2 * TEXT_COLUMN_MAX }).notNull(),
    priceCents: integer('price_cents').notNull(),
    /** Passes on sale in all; null: no limit. */
    capacity: integer('capacity'),
    /**
     * Places sold or held by a purchase in flight (ADR 0027). Kept by the purchase gate, voids and
     * the sweep of lapsed holds, for every event, capped or not, so a capacity set later is right.
     * The check makes overselling impossible whatever the code does.
     */
    taken: integer('taken').notNull().default(0),
    /** Null: on sale once listed. */
    salesOpenAt: timestamptz('sales_open_at'),
    /** Null: sales close when the event starts. */
    salesCloseAt: timestamptz('sales_close_at'),
    /** The title as staff would read it (core eventTitleKey): how a home-flow event name finds it. */
    titleKey: varchar('title_key', { length: TEXT_COLUMN_MAX }).notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('events_starts_at_idx').on(table.startsAt),
    index('events_title_key_starts_at_idx').on(table.titleKey, table.startsAt),
    check('events_price_not_negative', sql`${table.priceCents} >= 0`),
    check('events_capacity_positive', sql`${table.capacity} is null or ${table.capacity} > 0`),
    check('events_not_oversold', sql`${table.taken} >= 0 and (${table.capacity} is null or ${table.taken} <= ${table.capacity})`),
  ],
);

/** One admission of one pass at one event: the unique key is what makes a pass valid once per event. */
export const checkIns = pgTable(
  'check_ins',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: varchar('order_id', { length: 10 })
      .notNull()
      .references(() => purchases.orderId),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => events.id),
    staffUserId: text('staff_user_id').references(() => authUsers.id, { onDelete: 'set null' }),
    checkedInAt: timestamptz('checked_in_at').notNull().defaultNow(),
    /** The door device that admitted it offline (ADR 0014); null for a check-in decided by the server. */
    deviceId: varchar('device_id', { length: 64 }),
    /** When the server stored it: checked_in_at is the scan's time on the device, which may be earlier. */
    recordedAt: timestamptz('recorded_at').notNull().defaultNow(),
    /** Who uploaded an offline admission (ADR 0029): the device's signed-in owner at the time. */
    uploadedBy: text('uploaded_by').references(() => authUsers.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('check_ins_order_id_event_id_key').on(table.orderId, table.eventId),
    index('check_ins_event_id_checked_in_at_idx').on(table.eventId, table.checkedInAt),
    // The sales chart counts every event's check-ins over a time range.
    index('check_ins_checked_in_at_event_id_idx').on(table.checkedInAt, table.eventId),
  ],
);

/**
 * Spooled purchases the database refused (their order ID belongs to another purchase, or their data
 * breaks a constraint). The buyer was promised the pass, so staff must see each one: the replay
 * records it here (the spool file stays in spool/conflicts/ as the durable copy) and the admin panel
 * lists them. `record` is the spool record as JSON text (escaped, so any content is storable).
 */
export const quarantinedPurchases = pgTable(
  'quarantined_purchases',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: text('order_id').notNull(),
    reason: text('reason').notNull(),
    record: text('record').notNull(),
    quarantinedAt: timestamptz('quarantined_at').notNull().defaultNow(),
    /** When the record's name and email were erased (ADR 0032). */
    erasedAt: timestamptz('erased_at'),
  },
  (table) => [uniqueIndex('quarantined_purchases_order_id_key').on(table.orderId), index('quarantined_purchases_at_idx').on(table.quarantinedAt, table.id)],
);

/**
 * Every rate limit's counters, shared by all server processes on one database (rate-limiter-flexible's
 * PostgreSQL store layout: key, points used, expiry in epoch milliseconds).
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: varchar('key', { length: 255 }).primaryKey(),
    points: integer('points').notNull().default(0),
    expire: bigint('expire', { mode: 'number' }),
  },
  (table) => [index('rate_limits_expire_idx').on(table.expire)],
);

/**
 * How each tracked CSV export went (ADR 0012). The browser downloads the file itself and tells the
 * page nothing, so the instance that streams it writes the outcome here, where the page's polls
 * read it on whichever instance they reach. `id` is the random export id the page chose; rows live
 * a day (removed as new exports start). `heartbeat_at` moves on while the file is being written,
 * so a running export whose instance died reads as failed.
 */
export const csvExports = pgTable(
  'csv_exports',
  {
    id: uuid('id').primaryKey(),
    userId: ownedByUser(),
    status: text('status').notNull().default('running'),
    rows: bigint('rows', { mode: 'number' }),
    fileName: text('file_name').notNull(),
    startedAt: timestamptz('started_at').notNull().defaultNow(),
    heartbeatAt: timestamptz('heartbeat_at').notNull().defaultNow(),
  },
  (table) => [
    index('csv_exports_started_at_idx').on(table.startedAt),
    check('csv_exports_status_known', sql`${table.status} in ('running', 'complete', 'failed')`),
  ],
);

/**
 * Passes staff voided (and refunded), one row per pass. A separate table keeps the purchase row,
 * and so the spec's CSV columns and the buyer's record, as it was sold; readers join it to show the
 * pass as voided. `refunded_cents` is what the payment seam returned (0 when voided without refund).
 */
export const passVoids = pgTable(
  'pass_voids',
  {
    orderId: varchar('order_id', { length: 10 })
      .primaryKey()
      .references(() => purchases.orderId),
    reason: varchar('reason', { length: TEXT_COLUMN_MAX }).notNull(),
    refundedCents: integer('refunded_cents').notNull().default(0),
    refundReference: text('refund_reference'),
    /**
     * none (voided without a refund), pending (asked for, its answer not recorded yet: the void is
     * written before the provider is called, ADR 0030), refunded, or refused (by the provider after
     * the void had stood; a refusal while staff wait undoes the void instead).
     */
    refundStatus: text('refund_status').notNull().default('none'),
    /** A pending refund: when the settler may ask the provider (again); a lease, so one instance asks at a time. */
    refundDueAt: timestamptz('refund_due_at'),
    /** How often a settler has asked the provider for this refund: once one has, a refusal the void's own request hears no longer undoes the void. */
    settlerClaims: integer('settler_claims').notNull().default(0),
    staffUserId: text('staff_user_id').references(() => authUsers.id, { onDelete: 'set null' }),
    voidedAt: timestamptz('voided_at').notNull().defaultNow(),
  },
  (table) => [
    index('pass_voids_voided_at_idx').on(table.voidedAt),
    index('pass_voids_refund_due_idx').on(table.refundDueAt).where(sql`${table.refundStatus} = 'pending'`),
    check('pass_voids_refund_not_negative', sql`${table.refundedCents} >= 0`),
    check('pass_voids_refund_status', sql`${table.refundStatus} in ('none', 'pending', 'refunded', 'refused')`),
  ],
);

/**
 * Who did what (issue 13's audit log): one row per staff action, newest read first. `actor` is the
 * staff member's email (kept after the account is deleted) or ADMIN_CLI_ACTOR for the operator's CLI. `subject` is what was acted on (an
 * email, a pass ID, an event ID); `details` the action's own facts (a reason, a previous value).
 */
export const staffActions = pgTable(
  'staff_actions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorUserId: text('actor_user_id').references(() => authUsers.id, { onDelete: 'set null' }),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    subject: text('subject').notNull(),
    details: jsonb('details').notNull().default({}),
    at: timestamptz('at').notNull().defaultNow(),
  },
  (table) => [index('staff_actions_at_id_idx').on(table.at, table.id)],
);

/**
 * A door device (issue 13: the offline door). Its id is chosen by the device (a random UUID kept in
 * its storage) and bound on first use to the staff member who registered it (ADR 0029): only they
 * sync with it, until an admin revokes it. `pack_key` encrypts its pack at rest on the device.
 */
export const doorDevices = pgTable('door_devices', {
  id: varchar('id', { length: 64 }).primaryKey(),
  label: varchar('label', { length: 100 }).notNull(),
  eventId: bigint('event_id', { mode: 'number' }).references(() => events.id, { onDelete: 'set null' }),
  lastSyncAt: timestamptz('last_sync_at').notNull().defaultNow(),
  scansUploaded: integer('scans_uploaded').notNull().default(0),
  /** Null only for devices from before ADR 0029 (no one may sync with them). */
  ownerUserId: text('owner_user_id').references(() => authUsers.id, { onDelete: 'set null' }),
  /** AES-256 key (base64url) for the pack at rest; handed only to the owner's live session. */
  packKey: text('pack_key'),
  /** The device's first pack: no scan it decided can be older (the plausible window's start). */
  firstPackAt: timestamptz('first_pack_at'),
  revokedAt: timestamptz('revoked_at'),
  revokedBy: text('revoked_by').references(() => authUsers.id, { onDelete: 'set null' }),
});

/**
 * Every scan a device decided offline, as uploaded. The nonce is the device's, unique, so an upload
 * retried after a lost answer stores each scan once. `order_id` is null when the code named no pass.
 */
export const doorScans = pgTable(
  'door_scans',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    nonce: varchar('nonce', { length: 64 }).notNull(),
    deviceId: varchar('device_id', { length: 64 })
      .notNull()
      .references(() => doorDevices.id),
    orderId: varchar('order_id', { length: 10 }),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    verdict: varchar('verdict', { length: 20 }).notNull(),
    scannedAt: timestamptz('scanned_at').notNull(),
    uploadedAt: timestamptz('uploaded_at').notNull().defaultNow(),
  },
  (table) => [uniqueIndex('door_scans_nonce_key').on(table.nonce), index('door_scans_device_id_idx').on(table.deviceId)],
);

/**
 * A pass admitted at two doors while they could not see each other: the first check-in stands, and
 * staff see both times and devices here until they resolve it (never merged silently).
 * A null device means the server decided that admission (an online door).
 */
export const checkInConflicts = pgTable(
  'check_in_conflicts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: varchar('order_id', { length: 10 })
      .notNull()
      .references(() => purchases.orderId),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** double_admission: admitted at two doors; voided: admitted offline though the pass was voided (first_at: the void). */
    kind: varchar('kind', { length: 20 }).notNull().default('double_admission'),
    firstDeviceId: varchar('first_device_id', { length: 64 }),
    firstAt: timestamptz('first_at').notNull(),
    secondDeviceId: varchar('second_device_id', { length: 64 }),
    secondAt: timestamptz('second_at').notNull(),
    /** The scan that found it: one conflict per late admission, however often it is uploaded. */
    scanNonce: varchar('scan_nonce', { length: 64 }).notNull(),
    detectedAt: timestamptz('detected_at').notNull().defaultNow(),
    resolvedAt: timestamptz('resolved_at'),
    resolvedBy: text('resolved_by').references(() => authUsers.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('check_in_conflicts_scan_nonce_key').on(table.scanNonce),
    index('check_in_conflicts_pending_idx').on(table.detectedAt).where(sql`${table.resolvedAt} is null`),
    check('check_in_conflicts_kind_known', sql`${table.kind} in ('double_admission', 'voided')`),
  ],
);
