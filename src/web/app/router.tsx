import { createBrowserRouter } from 'react-router';
import { NotFoundPage } from '../features/not-found/not-found-page.tsx';
import { HomePage } from './home-page.tsx';
import { RootLayout } from './root-layout.tsx';

/**
 * The app's pages. The server answers 200 for the paths in src/core/routes.ts and 404 for the
 * rest, so a new page goes in both places. Planned: `/auth` (sign in) and `/admin` (admin panel,
 * behind a guard route).
 */
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <RootLayout />,
      children: [
        { index: true, element: <HomePage /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
