import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { type Db, queryRows } from '../db/database.ts';
import {
  accountVerificationMail,
  contactConfirmationMail,
  headerSafe,
  type MailContext,
  purchaseConfirmationMail,
  QR_CONTENT_ID,
  type RenderedMail,
} from './templates.ts';
import QRCode from 'qrcode';
import { isPermanentMailError, type MailTransport } from './transport.ts';

export const MAIL_KINDS = {
  purchaseConfirmation: 'purchase_confirmation',
  contactConfirmation: 'contact_confirmation',
  accountVerification: 'account_verification',
} as const;

/** Waits before retry 1, 2, 3, 4: five tries spread over about 22 minutes. */
export const DEFAULT_RETRY_DELAYS_MS = [30_000, 120_000, 300_000, 900_000];
/** A claimed row is not due again until this passes: longer than any SMTP timeout, so two workers never both send it. */
const LEASE_SECONDS = 120;
const BATCH_SIZE = 20;

const renderers: Record<string, (context: MailContext, payload: unknown) => RenderedMail> = {
  [MAIL_KINDS.purchaseConfirmation]: (context, payload) =>
    purchaseConfirmationMail(
      context,
      z
        .object({
          name: z.string(),
          eventName: z.string(),
          eventType: z.string(),
          timestamp: z.string(),
          orderId: z.string(),
          verificationUrl: z.string().optional(),
        })
        .parse(payload),
    ),
  [MAIL_KINDS.contactConfirmation]: (context, payload) =>
    contactConfirmationMail(context, z.object({ name: z.string() }).parse(payload)),
  [MAIL_KINDS.accountVerification]: (context, payload) =>
    accountVerificationMail(context, z.object({ url: z.string() }).parse(payload)),
};

/**
 * The pass QR as a PNG mail clients show inline. 240 px scans easily from a screen; PNG filter 2
 * ("up") compresses a QR's flat rows well at a fraction of the default filter search's CPU.
 */
const qrPng = (text: string) => QRCode.toBuffer(text, { margin: 1, width: 240, rendererOpts: { filterType: 2 } } as QRCode.QRCodeToBufferOptions);

/** The message an outbox row stands for; throws for an unknown kind or a malformed payload. */
export function renderMail(context: MailContext, kind: string, payload: unknown): RenderedMail {
  const render = renderers[kind];
  if (!render) throw Object.assign(new Error(`unknown mail kind ${kind}`), { responseCode: 550 });
  return render(context, typeof payload === 'string' ? JSON.parse(payload) : payload);
}

/**
 * Requests come first: while the event loop was busier than this over the last poll interval
 * (an on-sale rush), mail waits in the outbox, for at most MAX_DEFERRED_POLLS intervals in a row.
 */
const BUSY_UTILISATION = 0.6;
const MAX_DEFERRED_POLLS = 10;

export interface OutboxWorkerOptions {
  db: Db;
  transport: MailTransport;
  context: MailContext;
  from: string;
  log: FastifyBaseLogger;
  pollMs?: number;
  retryDelaysMs?: number[];
}

interface ClaimedRow {
  id: number | string;
  kind: string;
  recipient: string;
  payload: unknown;
  attempts: number;
  name?: string;
}

export interface WorkerRun {
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * Sends what the outbox holds. Rows are claimed with FOR UPDATE SKIP LOCKED and a lease, so
 * several server processes can share one database and each row is sent once in practice;
 * temporary failures are retried with backoff, permanent ones (SMTP 5xx) and the last try mark
 * the row failed with its error for staff to see.
 */
export function outboxWorker(options: OutboxWorkerOptions) {
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const maxAttempts = retryDelays.length + 1;
  const pollMs = options.pollMs ?? 1000;
  const host = new URL(options.context.publicUrl).hostname || 'localhost';
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<WorkerRun> | undefined;
  let again = false;
  let stopped = false;

  async function claim(): Promise<ClaimedRow[]> {
    return queryRows<ClaimedRow>(
      options.db,
      sql`update outbox set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
          where id in (
            select id from outbox
            where status = 'pending' and next_attempt_at <= now()
            order by next_attempt_at
            limit ${BATCH_SIZE}
            for update skip locked)
          returning id, kind, recipient, payload, attempts`,
    );
  }

  async function deliver(row: ClaimedRow): Promise<keyof WorkerRun> {
    try {
      const mail = renderMail(options.context, row.kind, row.payload);
      const { location } = await options.transport.send({
        from: options.from,
        to: headerSafe(row.recipient),
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<outbox-${row.id}@${host}>`,
        ...(mail.qrCode
          ? { attachments: [{ filename: 'pass-qr.png', content: await qrPng(mail.qrCode), cid: QR_CONTENT_ID }] }
          : {}),
      });
      await queryRows(options.db, sql`update outbox set status = 'sent', sent_at = now(), last_error = null where id = ${row.id}`);
      options.log.info({ outboxId: row.id, kind: row.kind, ...(location ? { file: location } : {}) }, location ? `mail written to ${location}` : 'mail sent');
      return 'sent';
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      const permanent = isPermanentMailError(error) || error instanceof z.ZodError;
      if (permanent || row.attempts >= maxAttempts) {
        await queryRows(options.db, sql`update outbox set status = 'failed', last_error = ${message} where id = ${row.id}`);
        options.log.error({ outboxId: row.id, kind: row.kind, attempts: row.attempts, error: message }, 'mail failed for good');
        return 'failed';
      }
      const delay = retryDelays[row.attempts - 1] ?? retryDelays.at(-1) ?? 0;
      await queryRows(
        options.db,
        sql`update outbox set last_error = ${message}, next_attempt_at = now() + make_interval(secs => ${delay / 1000}) where id = ${row.id}`,
      );
      options.log.warn({ outboxId: row.id, kind: row.kind, attempts: row.attempts, error: message }, 'mail will be retried');
      return 'retrying';
    }
  }

  /** Sends everything due now, batch after batch; while requests keep the server busy, one batch. */
  async function drain(): Promise<WorkerRun> {
    const run: WorkerRun = { sent: 0, retrying: 0, failed: 0 };
    for (;;) {
      const rows = await claim();
      for (const outcome of await Promise.all(rows.map(deliver))) run[outcome]++;
      if (rows.length < BATCH_SIZE || stopped || busy) return run;
    }
  }

  /** One drain at a time; a wake during a drain schedules one more. */
  function runOnce(): Promise<WorkerRun> {
    if (running) {
      again = true;
      return running;
    }
    running = drain().finally(() => {
      running = undefined;
      if (again && !stopped) {
        again = false;
        void runOnce().catch(() => {});
      }
    });
    return running;
  }

  const tick = () =>
    runOnce().catch((error: unknown) => options.log.warn({ err: error }, 'outbox unavailable; will try again'));

  let utilisation = performance.eventLoopUtilization();
  let busy = false;
  let deferred = 0;
  /** Each poll measures how busy the last interval was, and sends unless requests need the time. */
  const poll = () => {
    const now = performance.eventLoopUtilization();
    busy = performance.eventLoopUtilization(now, utilisation).utilization > BUSY_UTILISATION;
    utilisation = now;
    if (busy && deferred < MAX_DEFERRED_POLLS) {
      deferred++;
      return;
    }
    deferred = 0;
    void tick();
  };

  return {
    runOnce,
    /** Something was just queued: send it now, unless the server is busy serving requests. */
    wake: () => {
      if (!busy) void tick();
    },
    start() {
      stopped = false;
      timer = setInterval(poll, pollMs);
      timer.unref();
      void tick();
    },
    /** Stops polling and waits for mail being sent right now, so a restart sends nothing twice. */
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}

export type OutboxWorker = ReturnType<typeof outboxWorker>;
