import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { PurchaseResponse } from '../../core/purchase.ts';
import { type Db, queryRows } from '../db/database.ts';

/** IETF draft "The Idempotency-Key HTTP Header Field": 1..255 visible ASCII characters. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function fingerprintOf(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; response: PurchaseResponse }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

interface LocalEntry {
  fingerprint: string;
  /** Present for purchases that sit in the spool: the database cannot answer for them yet. */
  response?: PurchaseResponse;
}

/**
 * Remembers purchase requests by Idempotency-Key so a retry returns the first response.
 * The database is the record (shared by every server process); a process-local map covers
 * requests in flight here and purchases waiting in the spool while the database is away.
 */
export class IdempotencyStore {
  private readonly local = new Map<string, LocalEntry>();

  constructor(
    private readonly db: Db,
    /** How long an unfinished claim blocks retries before another request may take it over. */
    private readonly lockSeconds: number,
  ) {}

  async claim(key: string, fingerprint: string): Promise<Claim> {
    const mine = this.local.get(key);
    if (mine) {
      if (mine.fingerprint !== fingerprint) return { kind: 'mismatch' };
      return mine.response ? { kind: 'replay', response: mine.response } : { kind: 'in_progress' };
    }
    // Hold the key here first, so a second request in this process waits without a query.
    this.local.set(key, { fingerprint });
    let claim: Claim;
    try {
      claim = await this.claimInDatabase(key, fingerprint);
    } catch {
      // The database is away: carry on with the local claim; the purchase will go to the spool.
      claim = { kind: 'claimed' };
    }
    if (claim.kind !== 'claimed') this.local.delete(key);
    return claim;
  }

  private async claimInDatabase(key: string, fingerprint: string): Promise<Claim> {
    const claimed = await queryRows(this.db, sql`
      insert into idempotency_keys (key, fingerprint, locked_until, expires_at)
      values (${key}, ${fingerprint}, now() + make_interval(secs => ${this.lockSeconds}), now() + interval '24 hours')
      on conflict (key) do update set
        fingerprint = excluded.fingerprint,
        response_status = null,
        response_body = null,
        locked_until = excluded.locked_until,
        created_at = now(),
        expires_at = excluded.expires_at
      where idempotency_keys.expires_at < now()
         or (idempotency_keys.response_status is null
             and idempotency_keys.locked_until < now()
             and idempotency_keys.fingerprint = excluded.fingerprint)
      returning key`);
    if (claimed.length === 1) return { kind: 'claimed' };

    const [row] = await queryRows<{ fingerprint: string; response_status: number | null; response_body: unknown }>(
      this.db,
      sql`select fingerprint, response_status, response_body from idempotency_keys where key = ${key}`,
    );
    if (!row) return this.claimInDatabase(key, fingerprint); // removed in between: try again
    if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (row.response_status === null) return { kind: 'in_progress' };
    const body = typeof row.response_body === 'string' ? JSON.parse(row.response_body) : row.response_body;
    return { kind: 'replay', response: body as PurchaseResponse };
  }

  /** The purchase waits in the spool: answer retries from memory until the replay stores it. */
  rememberSpooled(key: string, fingerprint: string, response: PurchaseResponse): void {
    this.local.set(key, { fingerprint, response });
  }

  /** Called when the spooled purchase reached the database, which now answers for the key. */
  forgetSpooled(key: string): void {
    if (this.local.get(key)?.response) this.local.delete(key);
  }

  /** The request ended with a stored purchase: the database row answers from now on. */
  finish(key: string): void {
    if (!this.local.get(key)?.response) this.local.delete(key);
  }

  /** The request ended without a purchase (payment declined): the key may be used again. */
  async release(key: string): Promise<void> {
    this.local.delete(key);
    try {
      await queryRows(this.db, sql`delete from idempotency_keys where key = ${key} and response_status is null`);
    } catch {
      // The lock expires by itself.
    }
  }
}

/** Keys live at least 24 hours; after that they are swept. */
export async function sweepExpiredIdempotencyKeys(db: Db): Promise<number> {
  const swept = await queryRows(db, sql`delete from idempotency_keys where expires_at < now() returning key`);
  return swept.length;
}
