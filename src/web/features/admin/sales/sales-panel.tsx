import { useId, useMemo, useState } from 'react';
import { SALES_RANGES } from '../../../../core/api/sales.ts';
import { formatCents } from '../../../../core/money.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Table, TableBody, TableCell, TableColumns, TableContainer, TableRow } from '../../../components/ui/table.tsx';
import { type ChartSeries, SalesChart } from './sales-chart.tsx';
import { type Sales, type SalesRange, salesTotals, useSales } from './sales-api.ts';

const RANGE_LABELS: Record<SalesRange, string> = {
  '48h': 'Last 48 hours, per hour',
  '14d': 'Last 14 days, per day',
  '90d': 'Last 90 days, per day',
};

const RANGE_PERIOD: Record<SalesRange, string> = { '48h': 'the last 48 hours', '14d': 'the last 14 days', '90d': 'the last 90 days' };

const plural = (count: number, one: string, many: string) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** The figures in words: what a screen reader reads instead of the charts, and everyone sees first. */
function summaryOf(figures: Sales): string {
  const totals = salesTotals(figures);
  const busiest = figures.buckets.reduce((best, bucket) => (bucket.purchases > best.purchases ? bucket : best), figures.buckets[0]!);
  const peak = totals.purchases > 0 ? ` The busiest ${figures.bucket} was ${busiest.label} with ${plural(busiest.purchases, 'purchase', 'purchases')}.` : '';
  return `In ${RANGE_PERIOD[figures.range]}: ${plural(totals.purchases, 'purchase', 'purchases')}, ${formatCents(totals.revenueCents)} revenue, ${plural(totals.checkIns, 'check-in', 'check-ins')}.${peak} Times in ${figures.timeZone}.`;
}

/** Staff view of sales over time (issue 13): purchases and revenue, and check-ins per event, per hour or day. */
export function SalesPanel() {
  const id = useId();
  const [range, setRange] = useState<SalesRange>('14d');
  const { sales: figures, status, loading, reload } = useSales(range);

  const salesSeries = useMemo<ChartSeries[]>(
    () =>
      figures
        ? [
            { label: 'Purchases', scale: 'count', bars: true, values: figures.buckets.map((bucket) => bucket.purchases) },
            { label: 'Revenue', scale: 'money', values: figures.buckets.map((bucket) => bucket.revenueCents) },
          ]
        : [],
    [figures],
  );
  const checkInSeries = useMemo<ChartSeries[]>(
    () => figures?.checkIns.map((event) => ({ label: event.title, scale: 'count', values: event.counts })) ?? [],
    [figures],
  );

  return (
    <Card aria-labelledby={`${id}-title`} role="region" className="overflow-hidden">
      <CardHeader>
        <CardTitle as="h2" id={`${id}-title`}>
          Sales
        </CardTitle>
        <CardDescription>Purchases, revenue and check-ins over time, in the shop&rsquo;s time zone.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <div className="flex flex-col gap-2 sm:max-w-72">
          <Label htmlFor={`${id}-range`}>Range</Label>
          <select
            id={`${id}-range`}
            value={range}
            onChange={(event) => setRange(event.target.value as SalesRange)}
            className="h-11 rounded-lg border border-input bg-card px-3 text-base shadow-xs focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring/40 sm:text-sm"
          >
            {SALES_RANGES.map((key) => (
              <option key={key} value={key}>
                {RANGE_LABELS[key]}
              </option>
            ))}
          </select>
        </div>

        {!figures ? (
          status === 'error' ? (
            <div className="flex flex-col items-start gap-3 text-sm">
              <p>The sales figures could not be loaded.</p>
              <Button variant="outline" size="sm" onClick={reload}>
                Try again
              </Button>
            </div>
          ) : (
            <Spinner className="py-12">Loading sales...</Spinner>
          )
        ) : (
          <div className="flex flex-col gap-6" aria-busy={loading}>
            <p id={`${id}-summary`} className="text-sm" aria-live="polite">
              {summaryOf(figures)}
            </p>
            <figure className="flex flex-col gap-2">
              <figcaption className="text-sm font-semibold">Purchases (bars) and revenue (line)</figcaption>
              <SalesChart figures={figures} series={salesSeries} />
            </figure>
            <figure className="flex flex-col gap-2">
              <figcaption className="text-sm font-semibold">Check-ins per event</figcaption>
              {checkInSeries.length > 0 ? (
                <SalesChart figures={figures} series={checkInSeries} />
              ) : (
                <p className="text-sm text-muted-foreground">No check-ins in this range.</p>
              )}
            </figure>
            <details className="text-sm">
              <summary className="cursor-pointer font-medium">Figures as a table</summary>
              <SalesTable figures={figures} />
            </details>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** Every bucket of the range as a row: the charts' text alternative. */
function SalesTable({ figures }: { figures: Sales }) {
  const when = figures.bucket === 'hour' ? 'Hour' : 'Day';
  const events = figures.checkIns.map((event) => `Check-ins: ${event.title}`);
  return (
    <TableContainer aria-label="Sales per bucket, scrollable" className="mt-3 max-h-96 overflow-y-auto border sm:rounded-xl">
      <Table>
        <TableColumns columns={[when, 'Purchases', 'Revenue', ...events]} numeric={['Purchases', 'Revenue', ...events]} />
        <TableBody>
          {figures.buckets.map((bucket, row) => (
            <TableRow key={bucket.start}>
              <TableCell className="whitespace-nowrap">
                <time dateTime={bucket.start}>{bucket.label}</time>
              </TableCell>
              <TableCell className="text-right tabular-nums">{bucket.purchases}</TableCell>
              <TableCell className="text-right tabular-nums">{formatCents(bucket.revenueCents)}</TableCell>
              {figures.checkIns.map((event) => (
                <TableCell key={event.eventId} className="text-right tabular-nums">
                  {event.counts[row]}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
