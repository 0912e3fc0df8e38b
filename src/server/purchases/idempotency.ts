import { createHash, createHmac } from 'node:crypto';
import { PASS_ID_LENGTH } from '../../core/constants.ts';
import type { PurchaseResponse } from '../../core/api/purchases.ts';
import type { Db } from '../db/database.ts';
import { releaseClaim, renewIdempotencyClaims, storedIdempotentResponse } from './idempotency-queries.ts';

/**
 * How long a claim keeps retries off while its request runs. Short, because the process holding
 * it renews it every RENEW_EVERY_MS while the request is alive: a retry after a crash waits at
 * most this long, never the length of a payment.
 */
export const CLAIM_LEASE_SECONDS = 5;
const RENEW_EVERY_MS = 1500;

export function fingerprintOf(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

/** One keyed purchase request: the client's key and the fingerprint of what it asked for. */
export interface KeyedRequest {
  key: string;
  fingerprint: string;
}

const digestOf = (request: KeyedRequest, purpose: string) =>
  createHash('sha256').update(`skippass-${purpose}\0${request.key}\0${request.fingerprint}`);

/**
 * The pass ID of a keyed purchase: drawn from key and body instead of a random UUID, so every retry
 * of the same request (on any instance, with or without the database) sells the same pass. Whatever
 * path a retry takes, its purchase meets the first one's order ID, and the unique order_id turns the
 * second into a replay rather than a second pass. `draw` > 0 gives the next candidates when an
 * unrelated purchase holds the ID (about once in 10^12 sales). An HMAC under a key the server keeps
 * (passIdKey): an unkeyed hash let a client try keys until it got the pass ID it wanted (issue 23).
 */
export function passIdFor(passIdKey: Buffer, request: KeyedRequest, draw = 0): string {
  return createHmac('sha256', passIdKey)
    .update(`skippass-pass-id-${draw}\0${request.key}\0${request.fingerprint}`)
    .digest('hex')
    .slice(0, PASS_ID_LENGTH)
    .toUpperCase();
}

/**
 * The key of passIdFor, derived from a secret every instance behind one database shares (the auth
 * secret: sessions need it alike on all of them), so a retry that reaches another instance gets the
 * same pass ID. Its own derivation, so the ID never reveals anything of the secret itself.
 */
export function passIdKeyOf(sharedSecret: string): Buffer {
  return createHmac('sha256', sharedSecret).update('skippass pass-id key').digest();
}

/** What the payment provider de-duplicates on: the same key and body always charge one reference. */
export function paymentReferenceFor(request: KeyedRequest): string {
  return digestOf(request, 'payment').digest('base64url');
}

/** What this process alone can say of a key before the gate asks the database. */
export type LocalClaim = { kind: 'replay'; response: PurchaseResponse } | { kind: 'in_progress' } | { kind: 'mismatch' };

interface LocalEntry {
  fingerprint: string;
  /** Present for purchases that sit in the spool: the database cannot answer for them yet. */
  response?: PurchaseResponse;
}

/**
 * Remembers purchase requests by key so a retry returns the first response. The database is the
 * record (shared by every server process; the purchase gate claims keys there, ADR 0027); a
 * process-local map covers requests in flight here and purchases waiting in the spool while the
 * database is away. Where neither can answer (the database is away and the first request ran
 * elsewhere), the derived pass ID (passIdFor) still keeps the retry from becoming a second purchase.
 */
export class IdempotencyStore {
  private readonly local = new Map<string, LocalEntry>();
  private renewTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    /** passIdKeyOf the secret the instances share. */
    private readonly passIdKey: Buffer,
    readonly leaseSeconds = CLAIM_LEASE_SECONDS,
  ) {}

  /** The pass ID of a keyed purchase (passIdFor), under this shop's key. */
  passIdFor(request: KeyedRequest, draw = 0): string {
    return passIdFor(this.passIdKey, request, draw);
  }

  /**
   * Holds the key in this process first, so a second request with it here waits without a query:
   * answers what this process knows of the key, or undefined when this request now holds it here.
   */
  holdLocally(key: string, fingerprint: string): LocalClaim | undefined {
    const mine = this.local.get(key);
    if (mine) {
      if (mine.fingerprint !== fingerprint) return { kind: 'mismatch' };
      return mine.response ? { kind: 'replay', response: mine.response } : { kind: 'in_progress' };
    }
    this.local.set(key, { fingerprint });
    return undefined;
  }

  /** The gate claimed the key in the database (or could not ask it): keep the claim alive while the request runs. */
  claimed(): void {
    this.renewWhileInFlight();
  }

  /** The gate did not claim the key for this request: this process holds nothing for it. */
  notClaimed(key: string): void {
    this.local.delete(key);
  }

  /**
   * Keeps this process's claims alive while their requests run (payment, store): one statement
   * for all of them every RENEW_EVERY_MS. A process that dies stops renewing, and its claims
   * lapse within the lease.
   */
  private renewWhileInFlight(): void {
    if (this.renewTimer) return;
    this.renewTimer = setInterval(() => {
      const keys = [...this.local].filter(([, entry]) => !entry.response).map(([key]) => key);
      if (keys.length === 0) {
        clearInterval(this.renewTimer);
        this.renewTimer = undefined;
        return;
      }
      void renewIdempotencyClaims(this.db, keys, this.leaseSeconds).catch(() => {
        // The database is away: the requests will spool; their claims may lapse meanwhile.
      });
    }, RENEW_EVERY_MS).unref();
  }

  /** The response stored for this key and body, once its purchase is in the database. */
  async storedResponse(request: KeyedRequest): Promise<PurchaseResponse | undefined> {
    const body = await storedIdempotentResponse(this.db, request.key, request.fingerprint);
    return body === undefined ? undefined : parseResponse(body);
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

  /** The request ended without a purchase (payment declined): the key may be used again, its place is sold again. */
  async release(key: string): Promise<void> {
    this.local.delete(key);
    try {
      await releaseClaim(this.db, key);
    } catch {
      // The lease lapses by itself, and the sweep of lapsed holds gives the place back.
    }
  }

  /** Stops renewing (the app is closing). */
  close(): void {
    clearInterval(this.renewTimer);
    this.renewTimer = undefined;
  }
}

export const parseResponse = (body: unknown) => (typeof body === 'string' ? JSON.parse(body) : body) as PurchaseResponse;
