import { formatCents } from '../../../../core/money.ts';

/** What each recorded action reads as in the log; an action this build does not know shows as recorded. */
const ACTION_LABELS: Record<string, string> = {
  'admin.grant': 'Made an admin',
  'admin.revoke': 'Removed as admin',
  'staff.role': 'Changed a staff role',
  'pass.void': 'Voided a pass',
  'pass.refund': 'Refunded a pass',
  'pass.refund_refused': 'Refund refused by the provider',
  'mail.retry': 'Retried an email',
  'mail.resend': 'Sent a confirmation again',
  'event.create': 'Created an event',
  'event.update': 'Edited an event',
  'event.delete': 'Deleted an event',
  'check_in.conflict_resolved': 'Resolved a check-in conflict',
  'door.upload': 'Uploaded door scans',
  'door.device_revoked': 'Revoked a door device',
  'buyer.export': 'Exported a buyer’s data',
  'buyer.erase': 'Erased a buyer’s data',
};

export function actionLabel(action: string): string {
  return ACTION_LABELS[action] ?? action;
}

/** Keys whose values are money in cents, shown as dollars. */
const CENTS = /Cents$/;

function describeValue(key: string, value: unknown): string {
  if (typeof value === 'number' && CENTS.test(key)) return formatCents(value);
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return `{ ${describeDetails(value as Record<string, unknown>)} }`;
  }
  return JSON.stringify(value) ?? String(value);
}

/** An action's details as one line a person can read: "reason: Bought twice; refundedCents: $3.00". */
export function describeDetails(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${describeValue(key, value)}`)
    .join('; ');
}
