import { Suspense, type ReactNode } from 'react';
import { GUARD_TEXT } from '../../core/staff-messages.ts';
import { Spinner } from '../components/ui/spinner.tsx';

/** The fallback while a page loaded on demand arrives: Loading... (SPEC section 2). */
export function RouteLoading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Spinner className="flex-1 py-24">{GUARD_TEXT.loading}</Spinner>}>{children}</Suspense>;
}
