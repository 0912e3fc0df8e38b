import { LoaderCircle } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Table, TableBody, TableCell, TableColumns, TableContainer, TableRow, TableStateRow } from '../../../components/ui/table.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useContactRequests } from './use-contact-requests.ts';

const COLUMNS = ['Name', 'Email', 'Received'] as const;

/** Staff view of the Get in Touch requests (read-only): who asked, and when. */
export function ContactRequestsPanel() {
  const id = useId();
  const { items, hasOlder, status, loadOlder, reload } = useContactRequests();

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
        {hasOlder && items.length > 0 && (
          <div className="mt-4 flex justify-center">
            <Button variant="outline" size="sm" onClick={loadOlder} disabled={status === 'loading'}>
              {status === 'loading' && <LoaderCircle className="animate-spin" aria-hidden="true" />}
              Show older requests
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
