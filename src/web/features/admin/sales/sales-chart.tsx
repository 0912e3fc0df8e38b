import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { formatCents } from '../../../../core/money.ts';
import { lazyModule } from '../../../lib/lazy-module.ts';
import type { Sales } from './sales-api.ts';

const uplot = lazyModule(() => import('./uplot.ts'));

/** Colours with at least 3:1 contrast on the white card (WCAG 1.4.11 for graphics). */
export const SERIES_COLOURS = ['#4338ca', '#b45309', '#047857', '#be185d', '#0369a1', '#7c3aed', '#b91c1c', '#4d7c0f'];

export interface ChartSeries {
  label: string;
  values: number[];
  /** Which axis: counts on the left, money (cents) on the right. */
  scale: 'count' | 'money';
  bars?: boolean;
}

const HEIGHT = 240;

/**
 * One uPlot chart over a range's buckets, as wide as its container (a 390 px phone included) and
 * in the shop's time zone. Decorative for assistive technology: the panel's summary and table
 * carry the same figures as text.
 */
export function SalesChart({ figures, series }: { figures: Sales; series: ChartSeries[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let cancelled = false;
    uplot
      .load()
      .then(({ default: UPlot }) => {
        if (cancelled) return;
        const hourly = figures.bucket === 'hour';
        const money = series.some((one) => one.scale === 'money');
        const bars = UPlot.paths.bars?.({ size: [0.7, 40] });
        const options: uPlot.Options = {
          width: Math.max(element.clientWidth, 280),
          height: HEIGHT,
          tzDate: (seconds) => UPlot.tzDate(new Date(seconds * 1000), figures.timeZone),
          legend: { live: false },
          cursor: { drag: { x: false, y: false } },
          scales: { x: { time: true }, count: { range: (_u, _min, max) => [0, Math.max(1, max)] }, money: { range: (_u, _min, max) => [0, Math.max(100, max)] } },
          axes: [
            { values: hourly ? '{HH}:00' : '{MMM} {D}', space: 60, stroke: '#475569' },
            { scale: 'count', stroke: '#475569', size: 44, values: (_u, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? String(tick) : '')) },
            ...(money
              ? [{ scale: 'money', side: 1, stroke: '#475569', size: 64, grid: { show: false }, values: (_u: uPlot, ticks: number[]) => ticks.map((tick) => formatCents(tick).replace('.00', '')) }]
              : []),
          ],
          series: [
            {},
            ...series.map((one, i) => ({
              label: one.label,
              scale: one.scale,
              stroke: SERIES_COLOURS[i % SERIES_COLOURS.length]!,
              width: 2,
              ...(one.bars && bars ? { paths: bars, fill: `${SERIES_COLOURS[i % SERIES_COLOURS.length]!}99` } : {}),
              value: (_u: uPlot, value: number | null) => (value === null ? '-' : one.scale === 'money' ? formatCents(value) : String(value)),
            })),
          ],
        };
        const data: uPlot.AlignedData = [figures.buckets.map((bucket) => Date.parse(bucket.start) / 1000), ...series.map((one) => one.values)];
        chart = new UPlot(options, data, element);
        observer = new ResizeObserver(() => chart?.setSize({ width: Math.max(element.clientWidth, 280), height: HEIGHT }));
        observer.observe(element);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [figures, series]);

  if (failed) return <p className="text-sm text-muted-foreground">The chart could not be loaded; the table below has the same figures.</p>;
  return <div ref={box} aria-hidden="true" className="sales-chart min-h-[240px] w-full overflow-hidden" />;
}
