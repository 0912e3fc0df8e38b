import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

/**
 * A real <table> in a scroll container: on a narrow screen the table scrolls sideways inside its
 * card instead of widening the page. Name the container (aria-label) so keyboard users can scroll it.
 */
export function TableContainer({ className, ...props }: ComponentProps<'div'>) {
  return <div role="region" tabIndex={0} className={cn('relative w-full overflow-x-auto outline-none focus-visible:ring-2 focus-visible:ring-ring/40', className)} {...props} />;
}

export function Table({ className, ...props }: ComponentProps<'table'>) {
  return <table className={cn('w-full caption-bottom border-collapse text-sm', className)} {...props} />;
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
  return <thead className={cn('bg-muted/60 [&_tr]:border-b', className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody className={cn('[&_tr:last-child]:border-0', className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={cn('border-b transition-colors hover:bg-muted/40', className)} {...props} />;
}

export function TableHead({ className, scope = 'col', ...props }: ComponentProps<'th'>) {
  return (
    <th
      scope={scope}
      className={cn(
        'h-11 px-3 text-left align-middle text-xs font-semibold tracking-wide whitespace-nowrap text-muted-foreground uppercase',
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('px-3 py-3 align-middle', className)} {...props} />;
}

/** One row across all `colSpan` columns, in place of a table's rows while they load, are empty or failed to load. */
export function TableStateRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <TableRow className="hover:bg-transparent">
      <TableCell colSpan={colSpan} className="py-14 text-center text-muted-foreground">
        {children}
      </TableCell>
    </TableRow>
  );
}

/**
 * The heading row of a data table: one heading per column, numeric columns right-aligned, and
 * columns of row actions named for screen readers only.
 */
export function TableColumns({
  columns,
  numeric = [],
  screenReaderOnly = [],
}: {
  columns: readonly string[];
  numeric?: readonly string[];
  screenReaderOnly?: readonly string[];
}) {
  return (
    <TableHeader>
      <TableRow className="hover:bg-transparent">
        {columns.map((column) => (
          <TableHead key={column} className={numeric.includes(column) ? 'text-right' : undefined}>
            {screenReaderOnly.includes(column) ? <span className="sr-only">{column}</span> : column}
          </TableHead>
        ))}
      </TableRow>
    </TableHeader>
  );
}

export function TableCaption({ className, ...props }: ComponentProps<'caption'>) {
  return <caption className={cn('mt-4 text-sm text-muted-foreground', className)} {...props} />;
}
