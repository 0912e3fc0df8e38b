import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_EVENT_TYPE } from '../../core/constants.ts';
import { API_ERRORS } from '../../core/messages.ts';
import type { PurchaseResponse } from '../../core/api/purchases.ts';
import { formatTimestamp, newPassId } from '../../core/purchase.ts';
import type { PurchaseOrder } from './catalog.ts';
import type { Db } from '../db/database.ts';
import { responseOf, type PurchaseRecord } from './purchase-record.ts';
import { purchaseWriter } from './purchase-writer.ts';
import { ApiError } from '../errors.ts';
import type { PassCodes } from './pass-codes.ts';
import type { PaymentProvider } from './payment-provider.ts';
import type { PurchaseSpool } from './purchase-spool.ts';
import { fingerprintOf, type IdempotencyStore, type KeyedRequest, passIdFor, paymentReferenceFor } from './idempotency.ts';

/** A freshly drawn pass ID collides with a stored one about once in 10^12 sales; a few draws suffice. */
const MAX_ID_DRAWS = 5;

/** What a key's fingerprint is taken of: the order as the catalog priced it. */
function fingerprintedOrder({ name, email, eventName, eventId, priceCents }: PurchaseOrder) {
  return { name, email, eventName, eventId, priceCents };
}

export interface PurchaseServiceDeps {
  db: Db;
  passCodes: PassCodes;
  /** The event page's own (simulated) payment; the home flow's otherwise. */
  eventPayment?: PaymentProvider;
  payment: PaymentProvider;
  spool: PurchaseSpool;
  idempotency: IdempotencyStore;
  timeZone: string;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** Draws the pass ID of a purchase sent without an Idempotency-Key (keyed ones derive theirs). */
  newId?: () => string;
  /** Called once a purchase and its email are stored, so the mail worker can send at once. */
  onStored?: () => void;
}

export interface PurchaseOutcome {
  response: PurchaseResponse;
  /** True when this answer repeats an earlier request's (same Idempotency-Key). */
  replayed: boolean;
}

/**
 * Sells one pass: charge, then store the purchase with its confirmation email atomically.
 * The server alone decides price, event type and pass ID. Once the payment succeeded the buyer
 * gets their pass: if the database fails, the purchase goes to the durable spool instead.
 */
export function purchaseService(deps: PurchaseServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const newId = deps.newId ?? (() => newPassId());
  const writer = purchaseWriter(deps.db);

  async function buy(input: PurchaseOrder, idempotencyKey?: string): Promise<PurchaseOutcome> {
    const fingerprint = fingerprintOf(fingerprintedOrder(input));
    const idempotency = idempotencyKey === undefined ? undefined : { key: idempotencyKey, fingerprint };
    if (idempotency) {
      const claim = await deps.idempotency.claim(idempotency.key, fingerprint);
      if (claim.kind === 'replay') return { response: claim.response, replayed: true };
      if (claim.kind === 'mismatch') throw new ApiError(422, 'idempotency_key_reused', API_ERRORS.idempotencyKeyReused);
      if (claim.kind === 'in_progress') {
        throw new ApiError(409, 'idempotency_request_in_progress', API_ERRORS.idempotencyInProgress);
      }
    }

    let answered = false;
    try {
      const provider = input.eventId !== null && deps.eventPayment ? deps.eventPayment : deps.payment;
      const payment = await provider.charge({
        amountCents: input.priceCents,
        // A retry of the same key and body charges the same reference, which a real provider answers
        // without charging twice; a purchase without a key is a purchase of its own.
        reference: idempotency ? paymentReferenceFor(idempotency) : randomUUID(),
      });
      if (!payment.ok) throw new ApiError(402, 'payment_failed', API_ERRORS.paymentFailed);
      const outcome = await store(input, idempotency);
      answered = true;
      if (idempotency) deps.idempotency.finish(idempotency.key);
      return outcome;
    } finally {
      // No pass was promised (payment declined, or neither the database nor the spool took the
      // purchase): free the key, or every retry with it would get 409 until the lease lapses.
      if (!answered && idempotency) await deps.idempotency.release(idempotency.key);
    }
  }

  async function store(input: PurchaseOrder, idempotency: KeyedRequest | undefined): Promise<PurchaseOutcome> {
    const moment = now();
    const idFor = (draw: number) => (idempotency ? passIdFor(idempotency, draw) : newId());
    const recordFor = (id: string): PurchaseRecord => ({
      pass: {
        id,
        name: input.name,
        email: input.email,
        eventName: input.eventName,
        eventType: DEFAULT_EVENT_TYPE,
        amountCents: input.priceCents,
        timestamp: formatTimestamp(moment, deps.timeZone),
        purchaseDate: moment.toISOString(),
      },
      passUrl: deps.passCodes.passUrl(id),
      saved: true,
      ...(input.eventId === null ? {} : { eventId: input.eventId }),
      ...(input.event ? { event: input.event } : {}),
      ...(idempotency ? { idempotency } : {}),
    });

    let record = recordFor(idFor(0));
    try {
      for (let draw = 1; ; draw++) {
        if ((await writer.write(record)) === 'inserted') {
          deps.onStored?.();
          return { response: responseOf(record), replayed: false };
        }
        // The ID is taken. A keyed purchase's ID is its key's, so this is usually the same purchase,
        // stored by an earlier attempt whose answer was lost: answer with that one, sell nothing new.
        const stored = idempotency && (await deps.idempotency.storedResponse(idempotency));
        if (stored) return { response: stored, replayed: true };
        if (draw === MAX_ID_DRAWS) throw new Error(`no free pass ID after ${MAX_ID_DRAWS} draws`);
        record = recordFor(idFor(draw));
      }
    } catch (error) {
      deps.log.error({ err: error, orderId: record.pass.id }, 'purchase not stored; writing it to the spool');
      return { response: await spool({ ...record, saved: false }), replayed: false };
    }
  }

  async function spool(record: PurchaseRecord): Promise<PurchaseResponse> {
    try {
      await deps.spool.write(record);
    } catch (error) {
      // Neither the database nor the disk took it: we cannot promise the pass, so we do not.
      deps.log.fatal({ err: error, orderId: record.pass.id }, 'purchase could not be spooled');
      throw new ApiError(503, 'unavailable', API_ERRORS.unavailable);
    }
    const response = responseOf(record);
    if (record.idempotency) {
      deps.idempotency.rememberSpooled(record.idempotency.key, record.idempotency.fingerprint, response);
    }
    return response;
  }

  return { buy };
}

export type PurchaseService = ReturnType<typeof purchaseService>;
