import { z } from 'zod';
import { buyerAddressSchema } from '../buyer-data.ts';
import { adminEndpoint, ERRORS, timestamp } from './contract.ts';

const body = buyerAddressSchema.meta({ id: 'BuyerAddress' });

export const buyerDataExportSchema = z
  .object({
    email: z.string().describe('The address asked about; rows match it by mailbox (letter case and a +tag ignored)'),
    exportedAt: timestamp,
    purchases: z.array(
      z.object({
        orderId: z.string(),
        name: z.string(),
        email: z.string(),
        eventName: z.string(),
        eventType: z.string(),
        eventId: z.number().int().nullable(),
        amountCents: z.number().int(),
        purchasedAt: timestamp,
        void: z
          .object({ reason: z.string(), refundedCents: z.number().int(), refundReference: z.string().nullable(), voidedAt: timestamp })
          .nullable()
          .describe('Set when staff voided (and perhaps refunded) the pass'),
        checkIns: z.array(z.object({ eventId: z.number().int(), checkedInAt: timestamp })),
      }),
    ),
    mails: z.array(
      z.object({
        kind: z.string(),
        recipient: z.string(),
        status: z.string().describe('pending, sent or failed'),
        createdAt: timestamp,
        sentAt: timestamp.nullable(),
        payload: z.record(z.string(), z.unknown()).describe('What the mail was written from'),
      }),
    ),
    contactRequests: z.array(z.object({ name: z.string(), email: z.string(), createdAt: timestamp })),
    heldPurchases: z.array(
      z.object({ orderId: z.string(), reason: z.string(), quarantinedAt: timestamp, record: z.unknown().describe('The spooled purchase as it was held') }),
    ),
  })
  .meta({ id: 'BuyerDataExport' });

export type BuyerDataExport = z.infer<typeof buyerDataExportSchema>;

export const buyerErasureSchema = z
  .object({
    passes: z.number().int().describe('Purchases whose name and email were erased'),
    mails: z.number().int(),
    contactRequests: z.number().int(),
    heldPurchases: z.number().int(),
  })
  .meta({ id: 'BuyerErasure' });

export type BuyerErasure = z.infer<typeof buyerErasureSchema>;

export const exportBuyerData = adminEndpoint({
  method: 'POST',
  path: '/api/admin/buyer-data/export',
  summary: 'Everything the shop holds about one email address, as JSON (audited by order IDs, never the address)',
  tag: 'staff',
  body,
  success: { status: 200, schema: buyerDataExportSchema, description: 'The buyer’s data; empty lists when the shop holds none' },
  errors: { 400: ERRORS.invalid },
});

export const eraseBuyerData = adminEndpoint({
  method: 'POST',
  path: '/api/admin/buyer-data/erase',
  summary: 'Erase one buyer’s name and email now, everywhere the shop keeps them; order IDs, amounts and check-in times stay (audited)',
  tag: 'staff',
  body,
  success: { status: 200, schema: buyerErasureSchema, description: 'What was erased; zeros when the shop held nothing' },
  errors: { 400: ERRORS.invalid },
});
