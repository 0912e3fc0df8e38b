import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import { finishExportOutcome, HEARTBEAT_STALE_SECONDS, touchExportOutcome } from './export-outcome-queries.ts';
import type { PurchaseCsv } from './purchase-export.ts';

/** How often a running export's heartbeat moves on: well inside HEARTBEAT_STALE_SECONDS. */
const HEARTBEAT_MS = (HEARTBEAT_STALE_SECONDS * 1000) / 3;

/**
 * Watches one tracked export to its end and records how it went (ADR 0012): complete, with its
 * rows, only when the whole CSV was read from the database and the response was handed to the
 * network in full ('finish'); failed when the source broke or the connection closed first.
 */
export function recordExportOutcome(deps: { db: Db; log: FastifyBaseLogger }, id: string, csv: PurchaseCsv, response: ServerResponse): void {
  let sourceEnded = false;
  let sourceFailed = false;
  let settled = false;
  const heartbeat = setInterval(() => {
    touchExportOutcome(deps.db, id).catch((error: unknown) => deps.log.warn({ err: error }, 'export heartbeat failed'));
  }, HEARTBEAT_MS).unref();

  const settle = (complete: boolean) => {
    if (settled) return;
    settled = true;
    clearInterval(heartbeat);
    const result = complete ? { status: 'complete' as const, rows: csv.rows() } : { status: 'failed' as const };
    finishExportOutcome(deps.db, id, result).catch((error: unknown) => deps.log.warn({ err: error }, 'recording the export outcome failed'));
  };

  csv.stream.once('end', () => (sourceEnded = true));
  csv.stream.once('error', () => (sourceFailed = true));
  response.once('finish', () => settle(sourceEnded && !sourceFailed));
  response.once('close', () => settle(false));
}
