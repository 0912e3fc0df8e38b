// What the simulated payment charged, read from its ledger (PAYMENT_LEDGER_FILE: one line
// "<reference> <amountCents>" per successful charge, appended before the charge returns, so a
// kill -9 loses none), and which of those charges have a stored pass.
//
// A keyed purchase's charge reference and pass ID are both drawn from its Idempotency-Key and the
// fingerprint of its body (src/server/purchases/idempotency.ts: paymentReferenceFor, passIdFor),
// and idempotency_keys keeps both for a day: that is how a charge is matched to its pass here.
// The two derivations are mirrored below; if the server's change, every charge shows as
// unmatched, which fails loudly rather than passing quietly.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { query } from './pg-admin.mjs';

const digestOf = (key, fingerprint, purpose) => createHash('sha256').update(`skippass-${purpose}\0${key}\0${fingerprint}`);
export const paymentReferenceFor = (key, fingerprint) => digestOf(key, fingerprint, 'payment').digest('base64url');
export const passIdFor = (key, fingerprint, draw = 0) => digestOf(key, fingerprint, `pass-id-${draw}`).digest('hex').slice(0, 10).toUpperCase();

/** Every charge in `files` (missing files count as no charge): lines, distinct references, cents. */
export async function readLedger(files) {
  /** @type {{ reference: string, amountCents: number }[]} */
  const charges = [];
  for (const file of files) {
    let text = '';
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ENOENT') throw error;
    }
    for (const line of text.split('\n')) {
      if (!line) continue;
      const [reference = '', cents = ''] = line.split(' ');
      charges.push({ reference, amountCents: Number(cents) });
    }
  }
  const references = new Set(charges.map((c) => c.reference));
  return { charges: charges.length, references, distinct: references.size, cents: charges.reduce((sum, c) => sum + c.amountCents, 0) };
}

/**
 * Matches the ledger's distinct references with the passes stored for `eventId`.
 * chargedWithoutPass: references whose purchase has no stored pass of the event (or that match
 * no key at all); passWithoutCharge: stored passes of the event the ledger never charged.
 */
export async function matchCharges(databaseUrl, eventId, references) {
  const keys = await query(databaseUrl, 'select key, fingerprint, response_body #>> \'{pass,id}\' as pass_id from idempotency_keys');
  const stored = new Set((await query(databaseUrl, 'select order_id from purchases where event_id = $1', [eventId])).map((r) => r.order_id));
  const passOf = new Map(keys.map((k) => [paymentReferenceFor(k.key, k.fingerprint), k.pass_id ?? passIdFor(k.key, k.fingerprint)]));
  const chargedWithoutPass = [...references].filter((reference) => !stored.has(passOf.get(reference)));
  const chargedPasses = new Set([...references].map((reference) => passOf.get(reference)));
  const passWithoutCharge = [...stored].filter((id) => !chargedPasses.has(id));
  return { stored: stored.size, chargedWithoutPass, passWithoutCharge, unmatched: [...references].filter((r) => !passOf.has(r)).length };
}
