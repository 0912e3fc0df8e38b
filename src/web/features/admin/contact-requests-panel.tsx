import { LoaderCircle } from 'lucide-react';
import { useCallback, useEffect, useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Table, TableBody, TableCell, TableColumns, TableContainer, TableRow, TableStateRow } from '../../components/ui/table.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { type ContactRequest, fetchContactRequests } from './admin-api.ts';
import { reportLoadFailure } from './load-failure.ts';

const COLUMNS = ['Name', 'Email', 'Received'] as const;

/** Contact requests, newest first, 100 at a time; `loadOlder` appends the next 100. */
function useContactRequests(refreshToken: number) {
  const [items, setItems] = useState<ContactRequest[]>([]);
  const [nextBefore, setNextBefore] = useState<number | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [reloads, setReloads] = useState(0);

  /** Shows a page: the first replaces the list, an older one is appended. */
  const show = useCallback((result: Awaited<ReturnType<typeof fetchContactRequests>>, append: boolean) => {
    if (result.ok) {
      setItems((current) => (append ? [...current, ...result.data.items] : result.data.items));
      setNextBefore(result.data.nextBefore);
      setStatus('ready');
    } else {
      reportLoadFailure(result, 'Failed to load contact requests');
      setStatus('error');
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    setStatus('loading');
    void fetchContactRequests(null, { signal: controller.signal }).then((result) => {
      if (!controller.signal.aborted) show(result, false);
    });
    return () => controller.abort();
  }, [refreshToken, reloads, show]);

  const loadOlder = useCallback(async () => {
    if (nextBefore === null) return;
    setStatus('loading');
    show(await fetchContactRequests(nextBefore), true);
  }, [nextBefore, show]);

  return { items, nextBefore, status, loadOlder, reload: () => setReloads((count) => count + 1) };
}

/** Staff view of the Get in Touch requests (read-only): who asked, and when. */
export function ContactRequestsPanel({ refreshToken }: { refreshToken: number }) {
  const id = useId();
  const { items, nextBefore, status, loadOlder, reload } = useContactRequests(refreshToken);

  const state =
    items.length > 0 ? null : status === 'loading' ? (
      <Spinner>Loading contact requests...</Spinner>
    ) : status === 'error' ? (
      <span>
        The contact requests could not be loaded.{' '}
        <button type="button" onClick={reload} className="cursor-pointer font-semibold text-primary underline-offset-4 hover:underline">
          Try again
        </button>
      </span>
    ) : (
      <span className="font-medium">No contact requests yet</span>
    );

  return (
    <Card aria-labelledby={`${id}-title`} role="region" className="overflow-hidden">
      <CardHeader>
        <CardTitle as="h2" id={`${id}-title`}>
          Contact requests
        </CardTitle>
        <CardDescription>Visitors who used the Get in Touch form, newest first. Each was sent a confirmation email.</CardDescription>
      </CardHeader>
      <CardContent className="px-0 sm:px-6">
        <TableContainer aria-label="Contact requests, scrollable" className="border-y sm:rounded-xl sm:border">
          <Table aria-busy={status === 'loading'}>
            <TableColumns columns={COLUMNS} />
            <TableBody>
              {state ? (
                <TableStateRow colSpan={COLUMNS.length}>{state}</TableStateRow>
              ) : (
                items.map((request) => (
                  <TableRow key={request.id}>
                    <TableCell className="max-w-64 min-w-32 font-medium break-words">{request.name}</TableCell>
                    <TableCell className="max-w-64 truncate" title={request.email}>
                      {request.email}
                    </TableCell>
                    <TableCell className="whitespace-nowrap text-muted-foreground">
                      <time dateTime={request.createdAt}>{formatDateTime(request.createdAt)}</time>
                    </TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </TableContainer>
        {nextBefore !== null && items.length > 0 && (
          <div className="mt-4 flex justify-center">
            <Button variant="outline" size="sm" onClick={() => void loadOlder()} disabled={status === 'loading'}>
              {status === 'loading' && <LoaderCircle className="animate-spin" aria-hidden="true" />}
              Show older requests
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
