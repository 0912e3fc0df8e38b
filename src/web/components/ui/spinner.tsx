import { LoaderCircle } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

/** A spinning icon with a visible text, announced politely to assistive tech. */
export function Spinner({ className, children, ...props }: ComponentProps<'div'>) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={cn('flex items-center justify-center gap-3 text-sm font-medium text-muted-foreground', className)}
      {...props}
    >
      <LoaderCircle className="size-5 shrink-0 animate-spin text-primary" aria-hidden="true" />
      <span>{children}</span>
    </div>
  );
}
