import { createContext, lazy, useContext, type ComponentType } from 'react';

/** The pages loaded on demand, one chunk each (staff code never rides on a buyer's first load). */
const PAGES = import.meta.glob<{ default: ComponentType }>('./pages/*.tsx');

/** Where the pages are, as Vite's build manifest names source files (from the project root). */
const PAGES_DIR = 'src/web/app/pages';

/**
 * Filled during a server render with the source files of the pages it used, so the server can
 * preload their chunks with the HTML (src/server/platform/web-routes.ts).
 */
export const RenderedModules = createContext<Set<string> | null>(null);

/** A page of `./pages/`, loaded when first shown. */
export function lazyPage(name: string): ComponentType {
  const load = PAGES[`./pages/${name}.tsx`];
  if (!load) throw new Error(`no page ./pages/${name}.tsx`);
  const Page = lazy(load);
  const LazyPage = () => {
    useContext(RenderedModules)?.add(`${PAGES_DIR}/${name}.tsx`);
    return <Page />;
  };
  LazyPage.displayName = `Page(${name})`;
  return LazyPage;
}

/** Starts loading a page of `./pages/` ahead of its route (the pass page while the purchase form is open); a failure is left to the route. */
export function preloadPage(name: string): void {
  void PAGES[`./pages/${name}.tsx`]?.().catch(() => undefined);
}
