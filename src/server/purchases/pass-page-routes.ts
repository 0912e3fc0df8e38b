import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { getPassPage, type PassPage } from '../../core/api/pass-page.ts';
import { API_ERRORS } from '../../core/messages.ts';
import { formatTimestamp } from '../../core/purchase.ts';
import type { Db } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import type { ShopLimits } from '../limits/limits.ts';
import { route } from '../platform/api-contract.ts';
import { BEARER_LINK_HEADERS } from '../platform/bearer-link.ts';
import type { PassCodes } from './pass-codes.ts';
import { admissionsOf, eventOfPass, type StoredPass, storedPass } from './pass-page-queries.ts';
import type { PurchaseRecord } from './purchase-record.ts';
import type { PurchaseSpool } from './purchase-spool.ts';

export interface PassPageDeps {
  db: Db;
  passCodes: PassCodes;
  spool: PurchaseSpool;
  limits: ShopLimits;
  timeZone: string;
  /** Add to Apple Wallet / Save to Google Wallet links of a pass (wallet-routes.ts); none when unset. */
  walletLinks?: (passId: string) => Promise<PassPage['wallet']>;
}

/** The pass page's answers: a bearer link's headers, and nothing keeps a copy of the pass. */
export const PASS_PAGE_HEADERS = { ...BEARER_LINK_HEADERS, 'cache-control': 'no-store' } as const;

const notFound = () => new ApiError(404, 'not_found', API_ERRORS.notFound);

/**
 * GET /api/passes/:code: a pass as its buyer sees it (ADR 0023). The signature is checked before
 * anything else, so a forged or altered code costs neither a limit's count nor a query. A pass the
 * database does not have (yet), or cannot be asked about, is looked up in this instance's spool:
 * the buyer was told it is confirmed, so its page opens before the replay stores it.
 */
export function passPageRoutes(app: FastifyInstance, deps: PassPageDeps) {
  const read = passPageReader(deps);
  route(app, getPassPage, async (request, reply) => {
    reply.headers(PASS_PAGE_HEADERS);
    const parsed = deps.passCodes.parse(request.params.code);
    if (parsed.kind !== 'signed') throw notFound();
    await deps.limits.passPage(reply, request.ip);
    const page = await read(parsed.id, request.log);
    if (!page) throw notFound();
    return page;
  });
}

/**
 * A pass's page by its ID, stored or spooled; null when neither has it. A database that could not
 * answer, when the spool has no such pass either, is thrown (the error handler answers 503). The
 * wallet files are built from the same answer (wallet-routes.ts).
 */
export function passPageReader(deps: PassPageDeps) {
  async function read(id: string, log: FastifyBaseLogger): Promise<PassPage | null> {
    let stored: StoredPass | null = null;
    let databaseError: unknown;
    try {
      stored = await storedPass(deps.db, id, deps.timeZone);
    } catch (error) {
      databaseError = error;
    }
    if (stored) return storedPage(stored, await admissionsOf(deps.db, id));

    const spooled = await deps.spool.read(id).catch((error: unknown) => {
      log.warn({ err: error, orderId: id }, 'spool unreadable for a pass page');
      return null;
    });
    if (spooled) return spooledPage(spooled, databaseError === undefined);
    // Neither has it: a database that could not answer is the error handler's (503 when it is away).
    if (databaseError !== undefined) throw databaseError;
    return null;
  }

  const passUrl = (id: string) => deps.passCodes.passUrl(id);

  async function storedPage(pass: StoredPass, admissions: Awaited<ReturnType<typeof admissionsOf>>): Promise<PassPage> {
    // An event's own pass admits once, at its event; the home pass once at each event.
    const used = pass.eventId !== null && admissions.some((admission) => admission.eventId === pass.eventId);
    return {
      pass: {
        id: pass.orderId,
        name: pass.name,
        eventName: pass.eventName,
        eventType: pass.eventType,
        amountCents: pass.amountCents,
        timestamp: formatTimestamp(pass.createdAt, deps.timeZone),
        purchaseDate: pass.createdAt.toISOString(),
      },
      passUrl: await passUrl(pass.orderId),
      ...(pass.eventDate !== null && pass.eventTime !== null && pass.eventLocation !== null
        ? { event: { date: pass.eventDate, time: pass.eventTime, location: pass.eventLocation } }
        : {}),
      state: {
        status: pass.voided ? 'voided' : used ? 'used' : 'valid',
        admissions: admissions.map((admission) => ({ event: admission.event, at: formatTimestamp(admission.checkedInAt, deps.timeZone) })),
      },
      // A voided pass no longer admits: it gets no wallet pass either.
      wallet: pass.voided ? {} : ((await deps.walletLinks?.(pass.orderId)) ?? {}),
    };
  }

  /**
   * A pass still in the spool: as it was sold, valid, never admitted (a check-in needs the stored
   * purchase). Its event's date and venue when the database can say them.
   */
  async function spooledPage(record: PurchaseRecord, databaseAnswers: boolean): Promise<PassPage> {
    const { email: _email, ...pass } = record.pass;
    let event: PassPage['event'];
    if (record.eventId !== undefined && databaseAnswers) {
      const found = await eventOfPass(deps.db, record.eventId, deps.timeZone).catch(() => null);
      if (found) event = { date: found.eventDate, time: found.eventTime, location: found.eventLocation };
    }
    return {
      pass,
      passUrl: await passUrl(pass.id),
      ...(event ? { event } : {}),
      state: { status: 'valid', admissions: [] },
      wallet: (await deps.walletLinks?.(pass.id)) ?? {},
    };
  }

  return read;
}
