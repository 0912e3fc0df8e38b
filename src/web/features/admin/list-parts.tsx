import { LoaderCircle } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Table, TableBody, TableCell, TableColumns, TableContainer, TableRow, TableStateRow } from '../../components/ui/table.tsx';
import { cn } from '../../lib/cn.ts';
import { useWideScreen } from './use-wide-screen.ts';

export type ListStatus = 'loading' | 'ready' | 'error';

/** A list query as the panels show it: loading while a read is under way, error when the last read failed. */
export function listStatus(query: { isFetching: boolean; isError: boolean }): ListStatus {
  return query.isFetching ? 'loading' : query.isError ? 'error' : 'ready';
}

/** One column of an admin list: its heading, and what each record shows under it (in the table and on the card). */
export interface ListColumn<T> {
  label: string;
  cell: (item: T) => ReactNode;
  /** The table cell's classes (widths, wrapping, alignment); cards lay their values out themselves. */
  className?: string;
  /** Right-aligned in the table (amounts, counts). */
  numeric?: boolean;
  /** Row actions: the heading is for screen readers only, and on a card the actions sit under the values. */
  actions?: boolean;
}

interface ListTableProps<T> {
  /** The scrollable table's name, e.g. "Events, scrollable"; the cards list is named without ", scrollable". */
  label: string;
  columns: ReadonlyArray<ListColumn<T>>;
  items: readonly T[];
  itemKey: (item: T) => string | number;
  /** Extra classes for one record's row and card (e.g. the event being edited). */
  itemClassName?: (item: T) => string | undefined;
  status: ListStatus;
  /** "Loading events...", "The events could not be loaded.", "No events yet". */
  loadingText: string;
  failedText: string;
  emptyText: ReactNode;
  onRetry: () => void;
  /** Records already shown are dimmed while a new read is under way (lists that are read again in place). */
  dimWhileLoading?: boolean;
}

function ListState({ status, loadingText, failedText, emptyText, onRetry }: Pick<ListTableProps<never>, 'status' | 'loadingText' | 'failedText' | 'emptyText' | 'onRetry'>) {
  if (status === 'loading') return <Spinner>{loadingText}</Spinner>;
  if (status === 'error') {
    return (
      <span>
        {failedText}{' '}
        <button type="button" onClick={onRetry} className="cursor-pointer font-semibold text-primary underline-offset-4 hover:underline">
          Try again
        </button>
      </span>
    );
  }
  return <span className="font-medium">{emptyText}</span>;
}

/**
 * An admin list: on a wide screen a table whose long values wrap or truncate so every column fits;
 * on a phone one card per record with its values labelled. With no records, the list's state
 * (Loading..., the failure with Try again, or the empty text) takes their place.
 */
function ListTable<T>(props: ListTableProps<T>) {
  const { items, status, columns } = props;
  const wide = useWideScreen();
  const dim = cn(props.dimWhileLoading && 'transition-opacity', props.dimWhileLoading && status === 'loading' && items.length > 0 && 'opacity-60');

  if (!wide) {
    const values = columns.filter((column) => !column.actions);
    const actions = columns.filter((column) => column.actions);
    return (
      <div className="px-4 sm:px-0" aria-busy={status === 'loading'}>
        {items.length === 0 ? (
          <p className="rounded-xl border bg-card px-4 py-10 text-center text-sm text-muted-foreground">
            <ListState {...props} />
          </p>
        ) : (
          <ul aria-label={props.label.replace(/, scrollable$/, '')} className={cn('flex flex-col gap-3', dim)}>
            {items.map((item) => (
              <li key={props.itemKey(item)} className={cn('rounded-xl border bg-card p-4 text-sm shadow-xs', props.itemClassName?.(item))}>
                <dl className="grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)] gap-x-3 gap-y-2">
                  {values.map((column) => (
                    <div key={column.label} className="col-span-2 grid grid-cols-subgrid">
                      <dt className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{column.label}</dt>
                      <dd className="min-w-0 wrap-anywhere">{column.cell(item)}</dd>
                    </div>
                  ))}
                </dl>
                {actions.map((column) => {
                  const content = column.cell(item);
                  // No actions for this record (a sent email has no Retry): no empty footer either.
                  return content === false || content == null ? null : (
                    <div key={column.label} className="mt-3 flex flex-wrap gap-2 border-t pt-3">
                      {content}
                    </div>
                  );
                })}
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  }

  return (
    <TableContainer aria-label={props.label} className="border-y sm:rounded-xl sm:border">
      <Table aria-busy={status === 'loading'} className={dim}>
        <TableColumns
          columns={columns.map((column) => column.label)}
          numeric={columns.filter((column) => column.numeric).map((column) => column.label)}
          screenReaderOnly={columns.filter((column) => column.actions).map((column) => column.label)}
        />
        <TableBody>
          {items.length > 0 ? (
            items.map((item) => (
              <TableRow key={props.itemKey(item)} className={props.itemClassName?.(item)}>
                {columns.map((column) => (
                  <TableCell key={column.label} className={cn(column.numeric && 'text-right tabular-nums', column.className)}>
                    {column.cell(item)}
                  </TableCell>
                ))}
              </TableRow>
            ))
          ) : (
            <TableStateRow colSpan={columns.length}>
              <ListState {...props} />
            </TableStateRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/**
 * A long value (an email address) that in the table stops at `className`'s max width (give it as
 * `md:max-w-...`) with an ellipsis, and on a card wraps. The full text stays in the page (screen
 * readers read it) and shows on hover.
 */
export function Truncated({ children, className }: { children: string; className?: string }) {
  return (
    <span title={children} className={cn('block wrap-anywhere md:truncate', className)}>
      {children}
    </span>
  );
}

/** "Show older ...": the next page of a list, under it, while there is one. */
function ShowOlder({ loading, onClick, children }: { loading: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <div className="mt-4 flex justify-center">
      <Button variant="outline" size="sm" onClick={onClick} disabled={loading}>
        {loading && <LoaderCircle className="animate-spin" aria-hidden="true" />}
        {children}
      </Button>
    </div>
  );
}

export interface ListCardProps<T> extends ListTableProps<T> {
  title: ReactNode;
  description: ReactNode;
  /** Beside the title on a wider screen (a search, filters); `headerClassName` aligns the two. */
  controls?: ReactNode;
  headerClassName?: string;
  /** Lists read a page at a time: "Show older ..." under the list while there is an older page. */
  older?: { hasOlder: boolean; load: () => void; text: string };
  /** Under the list (a "Load more" row). */
  footer?: ReactNode;
}

/**
 * Every admin list's card: a region named by its heading, the description, the list (see ListTable)
 * and what goes under it.
 */
export function ListCard<T>({ title, description, controls, headerClassName, older, footer, ...list }: ListCardProps<T>) {
  const id = useId();
  const heading = (
    <>
      <CardTitle as="h2" id={`${id}-title`}>
        {title}
      </CardTitle>
      <CardDescription>{description}</CardDescription>
    </>
  );
  return (
    <Card aria-labelledby={`${id}-title`} role="region" className="overflow-hidden">
      <CardHeader className={headerClassName}>
        {controls ? <div className="flex flex-col gap-1.5">{heading}</div> : heading}
        {controls}
      </CardHeader>
      <CardContent className="px-0 sm:px-6">
        <ListTable {...list} />
        {older?.hasOlder && list.items.length > 0 && (
          <ShowOlder loading={list.status === 'loading'} onClick={older.load}>
            {older.text}
          </ShowOlder>
        )}
        {footer}
      </CardContent>
    </Card>
  );
}
