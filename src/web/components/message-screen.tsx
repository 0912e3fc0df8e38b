import { type LucideIcon, RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn.ts';
import { Button } from './ui/button.tsx';

export interface MessageScreenProps {
  /** The heading's id (the section is named by it). */
  id: string;
  icon: LucideIcon;
  /** The icon's badge colours. */
  tone: string;
  title: string;
  children: ReactNode;
  /** The way on: a link or button, `mt-8` below the text. */
  action: ReactNode;
}

/** A page that only says something (Access Denied, Event not found): an icon, a heading, a line, and the way on. */
export function MessageScreen({ id, icon: Icon, tone, title, children, action }: MessageScreenProps) {
  return (
    <section aria-labelledby={id} className="flex flex-1 flex-col items-center justify-center bg-muted/50 px-4 py-24 text-center">
      <span className={cn('flex size-16 items-center justify-center rounded-2xl', tone)}>
        <Icon className="size-8" aria-hidden="true" />
      </span>
      <h1 id={id} className="mt-6 text-2xl font-bold tracking-tight sm:text-3xl">
        {title}
      </h1>
      <p className="mt-3 max-w-md text-muted-foreground">{children}</p>
      {action}
    </section>
  );
}

/** A public page whose data did not arrive (no network, a server fault): says so, and offers to try again. */
export function LoadFailed({ id, what, onRetry }: { id: string; what: string; onRetry: () => void }) {
  return (
    <section aria-labelledby={id} className="flex flex-1 flex-col items-center justify-center gap-4 bg-muted/50 px-4 py-24 text-center">
      <h1 id={id} className="text-2xl font-bold tracking-tight">
        The {what} could not be loaded
      </h1>
      <p className="text-muted-foreground">Check your connection and try again.</p>
      <Button variant="outline" onClick={onRetry}>
        <RefreshCw aria-hidden="true" />
        Try again
      </Button>
    </section>
  );
}
