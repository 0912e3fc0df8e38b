import { lazy } from 'react';
import { Route } from 'wouter';
import { RouteLoading } from './route-loading.tsx';

// Staff pages load on demand: a buyer in the shop never downloads them.
const AuthPage = lazy(() => import('../features/auth/auth-page.tsx').then((module) => ({ default: module.AuthPage })));
const AdminRoute = lazy(() => import('./admin-route.tsx').then((module) => ({ default: module.AdminRoute })));
const CheckInRoute = lazy(() => import('./check-in-route.tsx').then((module) => ({ default: module.CheckInRoute })));

/**
 * `/auth` (sign in or create an account), `/admin` and `/check-in` (admins only), for the app's
 * route switch (a fragment: wouter's Switch looks inside it).
 */
export const staffRoutes = (
  <>
    <Route path="/auth">
      <RouteLoading>
        <AuthPage />
      </RouteLoading>
    </Route>
    <Route path="/admin">
      <RouteLoading>
        <AdminRoute />
      </RouteLoading>
    </Route>
    <Route path="/check-in">
      <RouteLoading>
        <CheckInRoute />
      </RouteLoading>
    </Route>
  </>
);
