import { z } from 'zod';
import { SIGNED_PASS_CODE } from '../pass-code-format.ts';
import { passSchema } from './purchases.ts';
import { endpoint } from './contract.ts';

/** The pass page's key: the signed code its QR holds. A pass ID alone (printed, typed at the door) opens nothing. */
export const passCodeParams = z.strictObject({
  code: z
    .string()
    .regex(SIGNED_PASS_CODE, 'not a pass’s signed code (a pass ID alone opens no pass page)')
    .describe('The pass’s signed code, `<ID>.<signature>`'),
});

/** The pass's one admission per event, as the buyer reads it. */
const admission = z.object({
  event: z.string().describe('The event it was admitted at'),
  at: z.string().describe('When, as the shop shows it, in its time zone'),
});

/**
 * Where the pass stands: valid (admissions so far listed: the home pass is valid once per event),
 * used (an event's own pass, admitted at its event), or voided by staff (it no longer admits).
 */
export const passState = z
  .object({
    status: z.enum(['valid', 'used', 'voided']),
    admissions: z.array(admission),
  })
  .meta({ id: 'PassState' });

/** Add to Apple Wallet / Save to Google Wallet: present only when the shop has the wallet keys. */
export const walletLinks = z
  .object({
    apple: z.string().optional().describe('GET: the signed .pkpass (getAppleWalletPass)'),
    google: z.string().optional().describe('GET: a redirect to Google Wallet’s save link (saveToGoogleWallet)'),
  })
  .meta({ id: 'WalletLinks' });

export const passPage = z
  .object({
    pass: passSchema.omit({ email: true }),
    passUrl: z.string().describe('This page’s link, which the pass’s QR code also holds'),
    /** The event's date and venue, for a pass bought on an event's own page. */
    event: z.object({ date: z.string(), time: z.string(), location: z.string() }).optional(),
    state: passState,
    wallet: walletLinks,
  })
  .meta({ id: 'PassPage' });

export type PassPage = z.infer<typeof passPage>;

export const getPassPage = endpoint({
  method: 'GET',
  path: '/api/passes/:code',
  summary: 'A pass as its buyer sees it: details, QR link, state and wallet links',
  tag: 'purchases',
  access: 'public',
  params: passCodeParams,
  success: { status: 200, schema: passPage, description: 'The pass, stored or still waiting in the spool' },
  errors: {
    400: 'The code is not a signed pass code, e.g. a bare pass ID (error.code invalid_request)',
    404: 'No pass with this code: the signature does not verify, or no such pass was sold (error.code not_found)',
    429: 'Too many lookups from this client (error.code rate_limited)',
  },
});
