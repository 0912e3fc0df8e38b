import { lazy, Suspense, type ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { GUARD_TEXT } from '../../core/staff-messages.ts';
import { Spinner } from '../components/ui/spinner.tsx';

// Staff pages load on demand: a buyer in the shop never downloads them.
const AuthPage = lazy(() => import('../features/auth/auth-page.tsx').then((module) => ({ default: module.AuthPage })));
const AdminRoute = lazy(() => import('./admin-route.tsx').then((module) => ({ default: module.AdminRoute })));

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Spinner className="flex-1 py-24">{GUARD_TEXT.loading}</Spinner>}>{children}</Suspense>;
}

/** `/auth` (sign in or create an account) and `/admin` (admins only), as children of the root layout. */
export const staffRoutes: RouteObject[] = [
  {
    path: 'auth',
    element: (
      <Loading>
        <AuthPage />
      </Loading>
    ),
  },
  {
    path: 'admin',
    element: (
      <Loading>
        <AdminRoute />
      </Loading>
    ),
  },
];
