import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { type ClaimedRow, claimDueMail, dropMail, markMailFailed, markMailsSent, scheduleMailRetry } from './outbox-queries.ts';
import { headerSafe, type MailContext } from './templates.ts';
import { type MailRenderer, RenderThreadLost, renderPool } from './render-pool.ts';
import { isPermanentMailError, type MailTransport, type OutgoingMail } from './transport.ts';
import type { SentJournal } from './sent-journal.ts';

/** Waits before retry 1, 2, 3, 4: five tries spread over about 22 minutes. */
export const DEFAULT_RETRY_DELAYS_MS = [30_000, 120_000, 300_000, 900_000];
/** A claimed row is not due again until this passes, so no other worker sends it meanwhile. */
const DEFAULT_LEASE_MS = 120_000;
/**
 * Hard limit on one send, well under the lease: nodemailer's socketTimeout is an idle timeout, so a
 * server trickling bytes could stretch a send past the lease and let another worker send the row
 * again. At the deadline the connection is closed and the row retried like any temporary failure.
 */
const DEFAULT_SEND_DEADLINE_MS = 60_000;
const BATCH_SIZE = 20;
/**
 * Batches in flight at once while no buyer waits: one render thread composes a batch in about as
 * long as the batch then takes to be sent and marked, and one batch at a time left it idle for that
 * part (ADR 0037).
 */
const LANES = 2;

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
  /** How long a claim keeps other workers off a row (default 2 min). */
  leaseMs?: number;
  /** Hard limit on one send (default 60 s); keep it well under leaseMs. */
  sendDeadlineMs?: number;
  /** Where accepted sends are noted before their rows are marked (see sent-journal.ts). */
  journal?: SentJournal;
  /**
   * Completes a row's payload just before it is rendered (Find my pass looks its passes up here,
   * off the request path); null: nothing to send, and the row is dropped. A throw is retried.
   */
  prepare?: (kind: string, payload: unknown) => Promise<unknown>;
  /**
   * Whether buyers are waiting on this process (their purchases in flight). While they are, mail
   * goes one batch at a time on one render thread, even when the event loop is idle between waves.
   */
  buyersWaiting?: () => boolean;
  /**
   * Makes rows into messages (template, QR PNG, MIME). Default: a pool of worker threads, so a
   * rush's mail takes no CPU from the event loop answering buyers (ADR 0018); stop() closes it.
   */
  renderer?: MailRenderer;
}

export interface WorkerRun {
  sent: number;
  retrying: number;
  failed: number;
  /** Rows prepare() found nothing to send for (absent when none). */
  skipped?: number;
}

/**
 * Sends what the outbox holds. Rows are claimed with FOR UPDATE SKIP LOCKED and a lease, so
 * several server processes can share one database and each row is sent once in practice;
 * temporary failures are retried with backoff, permanent ones (see isPermanentMailError) and the last try mark
 * the row failed with its error for staff to see.
 */
export function outboxWorker(options: OutboxWorkerOptions) {
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const maxAttempts = retryDelays.length + 1;
  const pollMs = options.pollMs ?? 1000;
  const leaseSeconds = (options.leaseMs ?? DEFAULT_LEASE_MS) / 1000;
  const sendDeadlineMs = options.sendDeadlineMs ?? DEFAULT_SEND_DEADLINE_MS;
  const host = new URL(options.context.publicUrl).hostname || 'localhost';
  const renderer = options.renderer ?? renderPool();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<WorkerRun> | undefined;
  let again = false;
  let stopped = false;
  /**
   * Mail the server accepted whose row could not be marked sent (the database went away just
   * then). Marked before anything is claimed again, so the database's return does not send them
   * a second time once their lease runs out.
   */
  const unrecorded = new Map<ClaimedRow['id'], number>();
  let journalRead = false;


  /** Marks what was sent but not recorded: in memory, and in the journal a killed process left. */
  async function recordUnrecorded(): Promise<void> {
    if (!journalRead && options.journal) {
      // The journal holds ids as text; rows parse them to numbers, so one id is one key here.
      for (const entry of await options.journal.load()) if (!unrecorded.has(Number(entry.id))) unrecorded.set(Number(entry.id), entry.attempts);
      journalRead = true;
    }
    const rows = [...unrecorded].map(([id, attempts]) => ({ id, attempts }));
    await markMailsSent(options.db, rows);
    for (const row of rows) unrecorded.delete(row.id);
    await options.journal?.clear();
  }

  const claim = () => claimDueMail(options.db, leaseSeconds, BATCH_SIZE);

  /**
   * The transport's send, abandoned at the deadline: the abort closes the SMTP connection, and the
   * race returns even from a transport that ignores the signal.
   */
  async function sendWithinDeadline(mail: OutgoingMail): Promise<{ location?: string }> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`no answer from the mail server within ${sendDeadlineMs / 1000} s`);
        controller.abort(error);
        reject(error);
      }, sendDeadlineMs);
    });
    try {
      return await Promise.race([options.transport.send(mail, { signal: controller.signal }), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Sends one claimed row and records a failure; a sent row is returned with its log line, to be
   * marked with the rest of its batch (one statement for the batch, see drain).
   */
  async function deliver(row: ClaimedRow): Promise<keyof WorkerRun | { sent: ClaimedRow; location?: string }> {
    let stage: 'prepare' | 'render' | 'send' = 'prepare';
    try {
      const payload = options.prepare ? await options.prepare(row.kind, row.payload) : row.payload;
      if (payload === null) {
        await dropMail(options.db, row);
        options.log.info({ outboxId: row.id, kind: row.kind }, 'nothing to send; message dropped');
        return 'skipped';
      }
      stage = 'render';
      const mail = await renderer.compose(
        {
          context: options.context,
          kind: row.kind,
          payload,
          from: options.from,
          to: headerSafe(row.recipient),
          messageId: `<outbox-${row.id}@${host}>`,
        },
        { allThreads: wide() },
      );
      stage = 'send';
      const { location } = await sendWithinDeadline(mail);
      await options.journal?.add({ id: String(row.id), attempts: row.attempts }).catch((error: unknown) => {
        options.log.warn({ err: error }, 'mail sent; could not note it in the sent journal');
      });
      return { sent: row, ...(location ? { location } : {}) };
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      // A row that cannot be rendered (unknown kind, malformed payload) never will be; a render
      // thread that died says nothing about the row.
      const permanent = (stage === 'render' && !(error instanceof RenderThreadLost)) || isPermanentMailError(error);
      if (permanent || row.attempts >= maxAttempts) {
        await markMailFailed(options.db, row, message);
        options.log.error({ outboxId: row.id, kind: row.kind, attempts: row.attempts, error: message }, 'mail failed for good');
        return 'failed';
      }
      const delay = retryDelays[row.attempts - 1] ?? retryDelays.at(-1) ?? 0;
      await scheduleMailRetry(options.db, row, message, delay);
      options.log.warn({ outboxId: row.id, kind: row.kind, attempts: row.attempts, error: message }, 'mail will be retried');
      return 'retrying';
    }
  }

  /** Marks a batch's sent rows in one statement; if the database is away, they wait in `unrecorded`. */
  async function recordSent(sent: Array<{ sent: ClaimedRow; location?: string }>): Promise<void> {
    try {
      await markMailsSent(options.db, sent.map(({ sent: row }) => row));
    } catch (error) {
      for (const { sent: row } of sent) unrecorded.set(row.id, row.attempts);
      options.log.warn({ err: error, outboxIds: sent.map(({ sent: row }) => row.id) }, 'mail sent; marking it sent waits for the database');
    }
    for (const { sent: row, location } of sent) {
      options.log.info({ outboxId: row.id, kind: row.kind, ...(location ? { file: location } : {}) }, location ? `mail written to ${location}` : 'mail sent');
    }
  }

  /** No buyer waits and the loop is not busy: mail may take every lane and render thread. */
  const wide = () => !busy && !(options.buyersWaiting?.() ?? false);

  /**
   * Sends everything due now, batch after batch; while requests keep the server busy, one batch.
   * While no buyer waits and a full batch was claimed, a second lane claims the next one, so a
   * batch is composed while the last is sent and marked (LANES in flight).
   */
  async function drain(): Promise<WorkerRun> {
    const run: WorkerRun = { sent: 0, retrying: 0, failed: 0 };
    await recordUnrecorded();
    let more = true;
    const lanes: Array<Promise<unknown>> = [];
    const lane = async (index: number) => {
      while (more && (index === 0 || wide())) {
        const rows = await claim();
        if (rows.length < BATCH_SIZE || stopped || busy) more = false;
        else if (lanes.length < LANES && wide()) lanes.push(lane(lanes.length));
        const sent: Array<{ sent: ClaimedRow; location?: string }> = [];
        for (const outcome of await Promise.all(rows.map(deliver))) {
          if (typeof outcome === 'object') sent.push(outcome);
          else run[outcome] = (run[outcome] ?? 0) + 1;
        }
        await recordSent(sent);
        run.sent += sent.length;
      }
    };
    lanes.push(lane(0));
    // Every lane settled, not the first to fail: a drain ends only when no mail is in flight, or
    // the next drain's recordUnrecorded() would clear journal lines of sends not yet marked.
    let failure: { reason: unknown } | undefined;
    for (let i = 0; i < lanes.length; i++) {
      await lanes[i]!.catch((reason: unknown) => {
        failure ??= { reason };
      });
    }
    if (failure) throw failure.reason;
    return run;
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
      await recordUnrecorded().catch(() => {});
      await renderer.close();
    },
  };
}

export type OutboxWorker = ReturnType<typeof outboxWorker>;
