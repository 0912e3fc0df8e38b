import { Route, Router, Switch, type AroundNavHandler } from 'wouter';
import { NotFoundPage } from '../features/not-found/not-found-page.tsx';
import { type AppHistoryState, historyDepth } from '../lib/history-depth.ts';
import { HomePage } from './home-page.tsx';
import { lazyPage } from './lazy-page.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteLoading } from './route-loading.tsx';

const AuthPage = lazyPage('auth');
const AdminPage = lazyPage('admin');
const CheckInPage = lazyPage('check-in');
const EventPage = lazyPage('event');
const FindPassPage = lazyPage('find-pass');
const PassPage = lazyPage('pass');

// Every in-app navigation records its depth in the history entry, so Go Back can tell whether
// there is a page of ours to go back to (a fresh tab has none, and goes home instead).
const countDepth: AroundNavHandler = (navigate, to, options) =>
  navigate(to, { ...options, state: { depth: options?.replace ? historyDepth() : historyDepth() + 1 } satisfies AppHistoryState });

/**
 * The app's pages (wouter; ADR 0012), as listed in src/core/routes.ts. `ssrPath` is the path the
 * server rendered: during hydration the app renders that (and no query string), as the server did.
 */
export function AppRoutes({ ssrPath }: { ssrPath?: string }) {
  return (
    <Router aroundNav={countDepth} ssrPath={ssrPath} ssrSearch={ssrPath === undefined ? undefined : ''}>
      <RootLayout>
        <Switch>
          <Route path="/">
            <HomePage />
          </Route>
          <Route path="/auth">
            <RouteLoading>
              <AuthPage />
            </RouteLoading>
          </Route>
          <Route path="/admin">
            <RouteLoading>
              <AdminPage />
            </RouteLoading>
          </Route>
          <Route path="/check-in">
            <RouteLoading>
              <CheckInPage />
            </RouteLoading>
          </Route>
          <Route path="/events/:id">
            <RouteLoading>
              <EventPage />
            </RouteLoading>
          </Route>
          <Route path="/find-pass">
            <RouteLoading>
              <FindPassPage />
            </RouteLoading>
          </Route>
          <Route path="/pass/:code">
            <RouteLoading>
              <PassPage />
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
