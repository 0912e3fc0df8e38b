import type { FastifyInstance } from 'fastify';
import type { CopyOut, Db } from '../db/database.ts';
import type { ShopLimits } from '../limits/limits.ts';
import type { PaymentProvider } from '../purchases/payment-provider.ts';
import { adminRoutes, staffRoleRoutes } from './admin-routes.ts';
import type { Auth } from './auth.ts';
import { authRoutes } from './auth-routes.ts';
import { backOfficeRoutes } from './back-office-routes.ts';
import { salesRoutes } from './sales-routes.ts';

/**
 * Every route of the staff slice: better-auth's, /api/me, the purchases list, stats and export,
 * the sales chart, the back office (voids, refunds, resends, the audit log) and staff roles.
 * Answers the back office's settler of pending refunds.
 */
export function mountStaff(
  app: FastifyInstance,
  deps: {
    db: Db;
    copyOut?: CopyOut | undefined;
    auth: Auth;
    limits: ShopLimits;
    publicUrl: string;
    timeZone: string;
    productName: string;
    /** Refunds of voided passes go back through the payment seam, within its deadline. */
    payment: PaymentProvider;
    providerDeadlineMs: number;
    onMailQueued: () => void;
  },
) {
  authRoutes(app, deps);
  adminRoutes(app, deps);
  staffRoleRoutes(app, deps);
  salesRoutes(app, deps);
  // The settler of refunds left pending (ADR 0030): app.ts runs it in the background.
  return backOfficeRoutes(app, deps);
}
