import { useId } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { TableCell, TableRow } from '../../../components/ui/table.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useContactRequests } from './use-contact-requests.ts';
import { ListTable, ShowOlder } from '../list-parts.tsx';

const COLUMNS = ['Name', 'Email', 'Received'] as const;

/** Staff view of the Get in Touch requests (read-only): who asked, and when. */
export function ContactRequestsPanel() {
  const id = useId();
  const { items, hasOlder, status, loadOlder, reload } = useContactRequests();


  return (
    <Card aria-labelledby={`${id}-title`} role="region" className="overflow-hidden">
      <CardHeader>
        <CardTitle as="h2" id={`${id}-title`}>
          Contact requests
        </CardTitle>
        <CardDescription>Visitors who used the Get in Touch form, newest first. Each was sent a confirmation email.</CardDescription>
      </CardHeader>
      <CardContent className="px-0 sm:px-6">
        <ListTable
          label="Contact requests, scrollable"
          columns={COLUMNS}
          count={items.length}
          status={status}
          loadingText="Loading contact requests..."
          failedText="The contact requests could not be loaded."
          emptyText="No contact requests yet"
          onRetry={reload}
        >
          {items.map((request) => (
            <TableRow key={request.id}>
              <TableCell className="max-w-64 min-w-32 font-medium break-words">{request.name}</TableCell>
              <TableCell className="max-w-64 truncate" title={request.email}>
                {request.email}
              </TableCell>
              <TableCell className="whitespace-nowrap text-muted-foreground">
                <time dateTime={request.createdAt}>{formatDateTime(request.createdAt)}</time>
              </TableCell>
            </TableRow>
          ))}
        </ListTable>
        {hasOlder && items.length > 0 && (
          <ShowOlder loading={status === 'loading'} onClick={loadOlder}>
            Show older requests
          </ShowOlder>
        )}
      </CardContent>
    </Card>
  );
}
