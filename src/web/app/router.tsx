import { lazy } from 'react';
import { createBrowserRouter } from 'react-router';
import { NotFoundPage } from '../features/not-found/not-found-page.tsx';
import { HomePage } from './home-page.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteLoading } from './route-loading.tsx';
import { staffRoutes } from './staff-routes.tsx';

// The older event-specific purchase view (SPEC section 2): not linked from home, so loaded on demand.
const EventPassRoute = lazy(() => import('./event-pass-route.tsx').then((module) => ({ default: module.EventPassRoute })));

/**
 * The app's pages. The server answers 200 for the paths in src/core/routes.ts and 404 for the
 * rest, so a new page goes in both places. `/auth`, `/admin` and `/check-in` (behind the admin
 * guard) come from staff-routes.tsx; `/events/:id` is the public event-specific purchase view.
 */
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <RootLayout />,
      children: [
        { index: true, element: <HomePage /> },
        ...staffRoutes,
        {
          path: 'events/:id',
          element: (
            <RouteLoading>
              <EventPassRoute />
            </RouteLoading>
          ),
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
