import { Ticket } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useStaffBrowser } from '../lib/staff-browser.ts';
import { useShopConfig } from './shop-config.ts';

/**
 * Loaded on its own, and only in a browser that has signed in as staff: a buyer's first load
 * neither carries the session code nor reads the session.
 */
const AdminLink = lazy(() => import('./admin-link.tsx').then((module) => ({ default: module.AdminLink })));

/** The frame of every page: header with logo and product name (and Admin, for an admin), the page, an (empty) footer. */
export function RootLayout({ children }: { children: ReactNode }) {
  const { productName } = useShopConfig();
  // Read again on every navigation: a sign-in or sign-out sets or drops the mark.
  useLocation();
  const staffBrowser = useStaffBrowser();
  return (
    <div className="flex min-h-svh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-card px-4 py-2 font-medium shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-40 border-b border-border/70 bg-background/85 backdrop-blur-md print:static print:border-0 print:bg-transparent">
        <div className="mx-auto flex h-16 max-w-6xl items-center px-4 sm:px-6">
          <Link to="/" className="flex items-center gap-2.5 rounded-lg text-lg font-extrabold tracking-tight">
            <span className="flex size-9 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm shadow-primary/30">
              <Ticket className="size-5" aria-hidden="true" />
            </span>
            <span>{productName}</span>
          </Link>
          {staffBrowser && (
            <Suspense fallback={null}>
              <AdminLink />
            </Suspense>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col outline-none">
        {children}
      </main>
      {/* SPEC: an empty footer. A slim band in the brand's colours closes the page instead of a blank grey strip. */}
      <footer className="h-1.5 bg-linear-to-r from-primary via-fuchsia-500 to-amber-400 print:hidden" />
    </div>
  );
}
