import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { DEFAULT_EVENT_TYPE } from '../../core/constants.ts';
import { API_ERRORS } from '../../core/messages.ts';
import type { OrderBody, PurchaseResponse } from '../../core/api/purchases.ts';
import { eventTitleKey } from '../../core/events.ts';
import { formatTimestamp, newPassId } from '../../core/purchase.ts';
import { type CappedTitles, priceOrder, type PurchaseOrder } from './catalog.ts';
import type { Db } from '../db/database.ts';
import type { ShopLimits } from '../limits/limits.ts';
import type { PurchaseStep } from '../platform/metrics.ts';
import { purchaseGate, type GateEvent, type GateVerdict } from './purchase-gate.ts';
import { responseOf, type PurchaseRecord } from './purchase-record.ts';
import { purchaseWriter } from './purchase-writer.ts';
import { ApiError, EVENT_NOT_FOUND } from '../errors.ts';
import type { PassCodes } from './pass-codes.ts';
import type { PaymentProvider } from './payment-provider.ts';
import type { PurchaseSpool } from './purchase-spool.ts';
import { fingerprintOf, type IdempotencyStore, type KeyedRequest, paymentReferenceFor } from './idempotency.ts';

/** A freshly drawn pass ID collides with a stored one about once in 10^12 sales; a few draws suffice. */
const MAX_ID_DRAWS = 5;

export interface PurchaseServiceDeps {
  db: Db;
  passCodes: PassCodes;
  /** The event page's own (simulated) payment; the home flow's otherwise. */
  eventPayment?: PaymentProvider;
  payment: PaymentProvider;
  spool: PurchaseSpool;
  idempotency: IdempotencyStore;
  limits: ShopLimits;
  /** Capped events' titles, for a home-flow purchase while the database is away. */
  cappedTitles: CappedTitles;
  timeZone: string;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** Draws the pass ID of a purchase sent without an Idempotency-Key (keyed ones derive theirs). */
  newId?: () => string;
  /** Called once a purchase and its email are stored, so the mail worker can send at once. */
  onStored?: () => void;
  /** Starts timing a database step; the function it returns ends it (metrics). */
  timeStep?: (step: PurchaseStep) => () => void;
}

export interface PurchaseOutcome {
  response: PurchaseResponse;
  /** True when this answer repeats an earlier request's (same Idempotency-Key). */
  replayed: boolean;
}

/** Where the request came from: its limits are the client's, its 429 carries a Retry-After. */
export interface Buyer {
  ip: string;
  reply: FastifyReply;
}

/** What the gate let through: a sale (of a place of `event`, or of a home pass) or an earlier answer. */
type Entry = { kind: 'sell'; event: GateEvent | null } | { kind: 'replay'; response: PurchaseResponse };

/** A gate's refusal that sells nothing: the API's answer for it. */
type Refused = Exclude<GateVerdict['kind'], 'claimed' | 'limited' | 'replay'>;
const REFUSALS: Record<Refused, [status: number, code: string, message: string]> = {
  in_progress: [409, 'idempotency_request_in_progress', API_ERRORS.idempotencyInProgress],
  mismatch: [422, 'idempotency_key_reused', API_ERRORS.idempotencyKeyReused],
  not_found: [404, 'not_found', EVENT_NOT_FOUND],
  sold_out: [409, 'sold_out', API_ERRORS.soldOut],
  sales_closed: [409, 'sales_closed', API_ERRORS.salesClosed],
  sales_not_open: [409, 'sales_not_open', API_ERRORS.salesNotOpen],
};

function refusal(kind: Refused): ApiError {
  const [status, code, message] = REFUSALS[kind];
  return new ApiError(status, code, message);
}

/**
 * Sells one pass. Before the payment, the purchase gate settles its rate limits, its key and its
 * event's place in one statement (ADR 0027): a refused purchase is never charged. After it, the
 * purchase, its confirmation email and its key's answer are stored in one statement. The server
 * alone decides price, event and pass ID. Once the payment succeeded the buyer gets their pass: if
 * the database fails, the purchase goes to the durable spool instead.
 */
export function purchaseService(deps: PurchaseServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const newId = deps.newId ?? (() => newPassId());
  const writer = purchaseWriter(deps.db);
  const gate = purchaseGate({ db: deps.db, timeZone: deps.timeZone, leaseSeconds: deps.idempotency.leaseSeconds });

  /** Purchases being answered now: an on-sale's buyers wait here through their payment. */
  let answering = 0;

  async function sell(body: OrderBody, buyer: Buyer, idempotencyKey?: string): Promise<PurchaseOutcome> {
    const fingerprint = fingerprintOf(body);
    // A purchase without a key still claims one (drawn here, never a client's: those have no
    // space): the claim is what holds its place until it is stored.
    const claim: KeyedRequest = { key: idempotencyKey ?? ` ${randomUUID()}`, fingerprint };
    const known = deps.idempotency.holdLocally(claim.key, fingerprint);
    if (known?.kind === 'replay') return { response: known.response, replayed: true };
    if (known) throw refusal(known.kind);

    let entry: Entry;
    try {
      entry = await enter(body, buyer, claim);
    } catch (error) {
      deps.idempotency.notClaimed(claim.key);
      throw error;
    }
    if (entry.kind === 'replay') {
      deps.idempotency.notClaimed(claim.key);
      return { response: entry.response, replayed: true };
    }
    const { event } = entry;
    // A purchase without a key has a claim in the database only while it holds a place.
    const claimed = idempotencyKey !== undefined || event !== null;
    if (claimed) deps.idempotency.claimed();
    else deps.idempotency.notClaimed(claim.key);

    let answered = false;
    try {
      const order = priceOrder(body, event);
      const provider = 'eventId' in body && deps.eventPayment ? deps.eventPayment : deps.payment;
      const payment = await provider.charge({
        amountCents: order.priceCents,
        // A retry of the same key and body charges the same reference, which a real provider answers
        // without charging twice; a purchase without a key is a purchase of its own.
        reference: idempotencyKey === undefined ? randomUUID() : paymentReferenceFor(claim),
      });
      if (!payment.ok) throw new ApiError(402, 'payment_failed', API_ERRORS.paymentFailed);
      const outcome = await store(order, claimed ? claim : undefined, idempotencyKey !== undefined);
      answered = true;
      deps.idempotency.finish(claim.key);
      return outcome;
    } finally {
      // No pass was promised (payment declined, or neither the database nor the spool took the
      // purchase): free the key and its place, or every retry would get 409 until the lease lapses.
      if (!answered && claimed) await deps.idempotency.release(claim.key);
    }
  }

  /**
   * The gate: answers the event whose place the purchase now holds (null: a home pass for any
   * event), or the key's earlier answer, or throws the refusal.
   */
  async function enter(body: OrderBody, buyer: Buyer, claim: KeyedRequest): Promise<Entry> {
    const titleKey = 'eventName' in body ? eventTitleKey(body.eventName) : null;
    if (titleKey !== null) await deps.cappedTitles.fresh();
    const inGate = deps.limits.countedInDatabase;
    if (!inGate) await deps.limits.purchase(buyer.reply, buyer.ip, body.email);
    let verdict: GateVerdict;
    const endGate = deps.timeStep?.('gate');
    try {
      verdict = await gate.pass({
        key: claim.key,
        fingerprint: claim.fingerprint,
        eventId: 'eventId' in body ? body.eventId : null,
        titleKey,
        hits: inGate ? deps.limits.purchaseHits(buyer.ip, body.email) : [],
      });
    } catch (error) {
      // The database is away: count the limits here, and sell only what needs no place of an event.
      if (inGate) await deps.limits.purchase(buyer.reply, buyer.ip, body.email);
      if ('eventId' in body || (titleKey !== null && deps.cappedTitles.has(titleKey))) throw error;
      deps.log.warn({ err: error }, 'purchase gate unavailable; selling a home pass through the spool');
      return { kind: 'sell', event: null };
    } finally {
      endGate?.();
    }
    switch (verdict.kind) {
      case 'claimed':
        return { kind: 'sell', event: verdict.event };
      case 'replay':
        return verdict;
      case 'limited':
        throw deps.limits.refusal(buyer.reply, verdict.hit.window, verdict.msLeft);
      default:
        throw refusal(verdict.kind);
    }
  }

  /** Stores the sale with its claim's answer (`claim`: the client's key, or the server's while it holds a place). */
  async function store(input: PurchaseOrder, claim: KeyedRequest | undefined, clientKeyed: boolean): Promise<PurchaseOutcome> {
    const moment = now();
    const idFor = (draw: number) => (clientKeyed && claim ? deps.idempotency.passIdFor(claim, draw) : newId());
    const recordFor = async (id: string): Promise<PurchaseRecord> => ({
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
      passUrl: await deps.passCodes.passUrl(id),
      saved: true,
      ...(input.eventId === null ? {} : { eventId: input.eventId }),
      ...(input.event ? { event: input.event } : {}),
      ...(claim ? { idempotency: claim } : {}),
    });

    let record = await recordFor(idFor(0));
    const endStore = deps.timeStep?.('store');
    try {
      for (let draw = 1; ; draw++) {
        if ((await writer.write(record)) === 'inserted') {
          deps.onStored?.();
          return { response: responseOf(record), replayed: false };
        }
        // The ID is taken. A keyed purchase's ID is its key's, so this is usually the same purchase,
        // stored by an earlier attempt whose answer was lost: answer with that one, sell nothing new.
        const stored = clientKeyed && claim && (await deps.idempotency.storedResponse(claim));
        if (stored) return { response: stored, replayed: true };
        if (draw === MAX_ID_DRAWS) throw new Error(`no free pass ID after ${MAX_ID_DRAWS} draws`);
        record = await recordFor(idFor(draw));
      }
    } catch (error) {
      deps.log.error({ err: error, orderId: record.pass.id }, 'purchase not stored; writing it to the spool');
      return { response: await spool({ ...record, saved: false }), replayed: false };
    } finally {
      endStore?.();
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

  return {
    async buy(body: OrderBody, buyer: Buyer, idempotencyKey?: string): Promise<PurchaseOutcome> {
      answering++;
      try {
        return await sell(body, buyer, idempotencyKey);
      } finally {
        answering--;
      }
    },
    /** Whether a buyer is waiting on this instance (the outbox leaves them the second core, ADR 0037). */
    buyersWaiting: () => answering > 0,
  };
}

export type PurchaseService = ReturnType<typeof purchaseService>;
