import { z } from 'zod';
import { adminEndpoint, ERRORS, timestamp } from './contract.ts';

/** The chart's ranges: per hour over the last 48 hours, per day over the last 14 or 90 days. */
export const SALES_RANGES = ['48h', '14d', '90d'] as const;
export type SalesRange = (typeof SALES_RANGES)[number];

export const salesBucketSchema = z
  .object({
    start: timestamp.describe('When the bucket starts (its hour or its midnight in the shop’s time zone)'),
    label: z.string().describe('The bucket in the shop’s time zone: YYYY-MM-DD HH:00 per hour, YYYY-MM-DD per day'),
    purchases: z.number().int(),
    revenueCents: z.number().int(),
  })
  .meta({ id: 'SalesBucket' });

export const salesSchema = z
  .object({
    range: z.enum(SALES_RANGES),
    bucket: z.enum(['hour', 'day']),
    timeZone: z.string().describe('The shop’s time zone (SHOP_TIMEZONE) the buckets follow'),
    buckets: z.array(salesBucketSchema).describe('Oldest first, every bucket of the range, empty ones included; the last is the current one'),
    checkIns: z
      .array(
        z.object({
          eventId: z.number().int(),
          title: z.string(),
          counts: z.array(z.number().int()).describe('Check-ins per bucket, aligned with buckets'),
        }),
      )
      .describe('Events with at least one check-in in the range, by title'),
  })
  .meta({ id: 'Sales' });

export type Sales = z.output<typeof salesSchema>;

export const sales = adminEndpoint({
  method: 'GET',
  path: '/api/admin/sales',
  summary: 'Purchases, revenue and check-ins per hour (48h) or per day (14d, 90d), for the sales chart',
  tag: 'staff',
  query: z.strictObject({ range: z.enum(SALES_RANGES).default('14d') }),
  success: { status: 200, schema: salesSchema, description: 'Every bucket of the range' },
  errors: { 400: ERRORS.invalid },
});
