import { lazy } from 'react';
import { Route, Router, Switch, type AroundNavHandler } from 'wouter';
import { NotFoundPage } from '../features/not-found/not-found-page.tsx';
import { HomePage } from './home-page.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteLoading } from './route-loading.tsx';
import { staffRoutes } from './staff-routes.tsx';

// The older event-specific purchase view (SPEC section 2): not linked from home, so loaded on demand.
const EventPassRoute = lazy(() => import('./event-pass-route.tsx').then((module) => ({ default: module.EventPassRoute })));
// Find my pass: linked from the landing and the confirmation email, loaded on demand (ADR 0013).
const FindPassPage = lazy(() => import('../features/find-pass/find-pass-page.tsx').then((module) => ({ default: module.FindPassPage })));

/** How many in-app navigations led to the current history entry (0 on a fresh tab). */
export function historyDepth(): number {
  const depth = (window.history.state as { depth?: unknown } | null)?.depth;
  return typeof depth === 'number' ? depth : 0;
}

// Every in-app navigation records its depth in the history entry, so Go Back can tell whether
// there is a page of ours to go back to (a fresh tab has none, and goes home instead).
const countDepth: AroundNavHandler = (navigate, to, options) =>
  navigate(to, { ...options, state: { depth: options?.replace ? historyDepth() : historyDepth() + 1 } });

/**
 * The app's pages (wouter; ADR 0012). The server answers 200 for the paths in src/core/routes.ts
 * and 404 for the rest, so a new page goes in both places. `/auth`, `/admin` and `/check-in`
 * (behind the admin guard) come from staff-routes.tsx; `/events/:id` is the public event-specific
 * purchase view.
 */
export function AppRoutes() {
  return (
    <Router aroundNav={countDepth}>
      <RootLayout>
        <Switch>
          <Route path="/">
            <HomePage />
          </Route>
          {staffRoutes}
          <Route path="/events/:id">
            <RouteLoading>
              <EventPassRoute />
            </RouteLoading>
          </Route>
          <Route path="/find-pass">
            <RouteLoading>
              <FindPassPage />
            </RouteLoading>
          </Route>
          <Route>
            <NotFoundPage />
          </Route>
        </Switch>
      </RootLayout>
    </Router>
  );
}
