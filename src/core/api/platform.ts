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

export const healthLive = endpoint({
  method: 'GET',
  path: '/healthz/live',
  summary: 'Whether the process answers at all (for a liveness probe: restart it when not)',
  tag: 'platform',
  access: 'public',
  success: { status: 200, schema: z.object({ status: z.literal('ok') }).meta({ id: 'Liveness' }), description: 'The process answers' },
  errors: {},
});

const readiness = z
  .object({
    ready: z.boolean(),
    reason: z
      .enum(['shutting_down', 'cannot_store_purchases'])
      .optional()
      .describe('Why not: the server is draining for a restart, or neither the database nor the spool would take a purchase'),
  })
  .meta({ id: 'Readiness' });

export const healthReady = endpoint({
  method: 'GET',
  path: '/healthz/ready',
  summary: 'Whether to send this instance buyers (for a load balancer or a readiness probe)',
  tag: 'platform',
  access: 'public',
  success: { status: 200, schema: readiness, description: 'The database or, while it is away, the spool takes purchases' },
  errors: {},
  otherResponses: { 503: { schema: readiness, description: 'Shutting down, or nothing would store a purchase (ready false)' } },
});
