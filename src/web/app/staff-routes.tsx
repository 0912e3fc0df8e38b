import { lazy } from 'react';
import type { RouteObject } from 'react-router';
import { RouteLoading } from './route-loading.tsx';

// Staff pages load on demand: a buyer in the shop never downloads them.
const AuthPage = lazy(() => import('../features/auth/auth-page.tsx').then((module) => ({ default: module.AuthPage })));
const AdminRoute = lazy(() => import('./admin-route.tsx').then((module) => ({ default: module.AdminRoute })));
const CheckInRoute = lazy(() => import('./check-in-route.tsx').then((module) => ({ default: module.CheckInRoute })));

/**
 * `/auth` (sign in or create an account), `/admin` and `/check-in` (admins only), as children of
 * the root layout.
 */
export const staffRoutes: RouteObject[] = [
  {
    path: 'auth',
    element: (
      <RouteLoading>
        <AuthPage />
      </RouteLoading>
    ),
  },
  {
    path: 'admin',
    element: (
      <RouteLoading>
        <AdminRoute />
      </RouteLoading>
    ),
  },
  {
    path: 'check-in',
    element: (
      <RouteLoading>
        <CheckInRoute />
      </RouteLoading>
    ),
  },
];
