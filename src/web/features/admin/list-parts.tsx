import { LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Table, TableBody, TableColumns, TableContainer, TableStateRow } from '../../components/ui/table.tsx';
import { cn } from '../../lib/cn.ts';

export type ListStatus = 'loading' | 'ready' | 'error';

/** A list query as the panels show it: loading while a read is under way, error when the last read failed. */
export function listStatus(query: { isFetching: boolean; isError: boolean }): ListStatus {
  return query.isFetching ? 'loading' : query.isError ? 'error' : 'ready';
}

export interface ListTableProps {
  /** The scrollable table's name, e.g. "Events, scrollable". */
  label: string;
  columns: readonly string[];
  numeric?: readonly string[];
  screenReaderOnly?: readonly string[];
  /** How many rows there are to show; with none, the list's state takes their place. */
  count: number;
  status: ListStatus;
  /** "Loading events...", "The events could not be loaded.", "No events yet". */
  loadingText: string;
  failedText: string;
  emptyText: ReactNode;
  onRetry: () => void;
  /** Rows already shown are dimmed while a new read is under way (lists that are read again in place). */
  dimWhileLoading?: boolean;
  children: ReactNode;
}

/** An admin list's table: its headings, then its rows or, in their place, Loading..., the failure with Try again, or the empty text. */
export function ListTable(props: ListTableProps) {
  const { count, status } = props;
  return (
    <TableContainer aria-label={props.label} className="border-y sm:rounded-xl sm:border">
      <Table
        aria-busy={status === 'loading'}
        className={cn(props.dimWhileLoading && 'transition-opacity', props.dimWhileLoading && status === 'loading' && count > 0 && 'opacity-60')}
      >
        <TableColumns columns={props.columns} numeric={props.numeric} screenReaderOnly={props.screenReaderOnly} />
        <TableBody>
          {count > 0 ? (
            props.children
          ) : (
            <TableStateRow colSpan={props.columns.length}>
              {status === 'loading' ? (
                <Spinner>{props.loadingText}</Spinner>
              ) : status === 'error' ? (
                <span>
                  {props.failedText}{' '}
                  <button type="button" onClick={props.onRetry} className="cursor-pointer font-semibold text-primary underline-offset-4 hover:underline">
                    Try again
                  </button>
                </span>
              ) : (
                <span className="font-medium">{props.emptyText}</span>
              )}
            </TableStateRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** "Show older ...": the next page of a list, under it, while there is one. */
export function ShowOlder({ loading, onClick, children }: { loading: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <div className="mt-4 flex justify-center">
      <Button variant="outline" size="sm" onClick={onClick} disabled={loading}>
        {loading && <LoaderCircle className="animate-spin" aria-hidden="true" />}
        {children}
      </Button>
    </div>
  );
}
