import { createBrowserRouter } from 'react-router';
import { NotFoundPage } from '../features/not-found/not-found-page.tsx';
import { HomePage } from './home-page.tsx';
import { RootLayout } from './root-layout.tsx';
import { staffRoutes } from './staff-routes.tsx';

/**
 * The app's pages. The server answers 200 for the paths in src/core/routes.ts and 404 for the
 * rest, so a new page goes in both places. `/auth` and `/admin` (behind the admin guard) come
 * from staff-routes.tsx.
 */
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <RootLayout />,
      children: [
        { index: true, element: <HomePage /> },
        ...staffRoutes,
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
