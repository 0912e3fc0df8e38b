import { z } from 'zod';
import { endpoint } from './contract.ts';

const health = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    database: z.enum(['up', 'migrating', 'down']),
    spooled: z.number().int().nullable().describe('Purchases waiting in the spool for the database; null when the spool cannot be read'),
    quarantined: z.number().int().nullable().describe('Spooled purchases the database refused, held for staff; null when they cannot be counted'),
    spoolWritable: z.boolean().describe('Whether the disk would take a purchase right now'),
  })
  .meta({ id: 'Health' });

export const healthz = endpoint({
  method: 'GET',
  path: '/healthz',
  summary: 'Whether the shop can store purchases, and how the spool stands',
  tag: 'platform',
  access: 'public',
  success: { status: 200, schema: health, description: 'The database answers and is migrated' },
  errors: {},
  otherResponses: { 503: { schema: health, description: 'The database is down or still migrating (status unavailable)' } },
});
