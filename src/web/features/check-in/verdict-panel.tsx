import { Ban, CircleCheckBig, CircleX, LoaderCircle, ScanLine, TriangleAlert, WifiOff } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';
import { formatMoment } from '../../lib/format.ts';
import { isTypedId, passIdOf } from './check-in-code.ts';
import type { Verdict } from './use-check-in.ts';

interface Look {
  tone: string;
  icon: ReactNode;
  title: string;
  body: ReactNode;
}

const iconClass = 'size-14 shrink-0 sm:size-16';

function PassId({ id }: { id: string | null }) {
  if (!id) return null;
  return (
    <p className="mt-4 inline-flex items-center gap-2 rounded-full bg-black/10 px-3.5 py-1 text-sm font-semibold">
      Pass <span className="font-mono text-base tracking-[0.18em]">{id}</span>
    </p>
  );
}

function lookOf(verdict: Verdict, prompt: string): Look {
  switch (verdict.state) {
    case 'idle':
      return {
        tone: 'border-2 border-dashed border-border bg-card text-muted-foreground',
        icon: <ScanLine className="size-10 shrink-0 text-primary/60" aria-hidden="true" />,
        title: 'Ready',
        body: <p className="mt-1 text-base">{prompt}</p>,
      };
    case 'checking':
      return {
        tone: 'bg-secondary text-secondary-foreground',
        icon: <LoaderCircle className={cn(iconClass, 'animate-spin')} aria-hidden="true" />,
        title: 'Checking...',
        body: <PassId id={passIdOf(verdict.code)} />,
      };
    case 'failed':
      return {
        tone: 'bg-neutral-800 text-white',
        icon: <WifiOff className={iconClass} aria-hidden="true" />,
        title: 'Not checked',
        body: <p className="mt-1 text-base text-white/85">{verdict.message}</p>,
      };
    case 'done': {
      const { result } = verdict;
      if (result.result === 'valid') {
        return {
          tone: 'bg-emerald-600 text-white shadow-lg shadow-emerald-600/30',
          icon: <CircleCheckBig className={iconClass} aria-hidden="true" />,
          title: 'Valid',
          body: (
            <>
              <p className="mt-4 text-3xl leading-tight font-extrabold break-words sm:text-4xl">
                <span className="block text-base font-semibold text-white/85 sm:text-lg">Check the name:</span>{' '}
                {result.name}
              </p>
              {/* A typed ID has no signature behind it: anyone who saw a pass could type its ID. */}
              {isTypedId(verdict.code) ? (
                <p className="mt-2 text-base font-semibold text-white/90">Typed ID, not scanned: check the name before admitting.</p>
              ) : null}
              <PassId id={result.orderId} />
            </>
          ),
        };
      }
      if (result.result === 'already_used') {
        return {
          tone: 'bg-amber-400 text-amber-950 shadow-lg shadow-amber-400/30',
          icon: <TriangleAlert className={iconClass} aria-hidden="true" />,
          title: 'Already used',
          body: (
            <>
              <p className="mt-4 text-xl leading-tight font-bold sm:text-2xl">
                Checked in at <time dateTime={result.checkedInAt}>{formatMoment(result.checkedInAt)}</time>
              </p>
              <p className="mt-1.5 text-lg font-semibold break-words">
                Name: <span className="font-extrabold">{result.name}</span>
              </p>
              <PassId id={result.orderId} />
            </>
          ),
        };
      }
      if (result.result === 'voided') {
        // No reason shown: the door only needs to know not to admit; staff see the reason in the panel.
        return {
          tone: 'bg-red-700 text-white shadow-lg shadow-red-700/30',
          icon: <Ban className={iconClass} aria-hidden="true" />,
          title: 'Pass voided',
          body: (
            <>
              <p className="mx-auto mt-3 max-w-sm text-base text-balance text-white/90">Do not admit. The shop has cancelled this pass.</p>
              <p className="mt-1.5 text-lg font-semibold break-words">
                Name: <span className="font-extrabold">{result.name}</span>
              </p>
              <PassId id={result.orderId} />
            </>
          ),
        };
      }
      return {
        tone: 'bg-red-600 text-white shadow-lg shadow-red-600/30',
        icon: <CircleX className={iconClass} aria-hidden="true" />,
        title: 'Not a valid pass',
        body: (
          <>
            <p className="mx-auto mt-3 max-w-sm text-base text-balance text-white/90">
              Do not admit. The code is unknown, altered, or for another event.
            </p>
            <PassId id={passIdOf(verdict.code)} />
          </>
        ),
      };
    }
  }
}

/**
 * The answer at the door, big enough to read at a glance: green Valid with the name to check,
 * amber Already used with when, red Pass voided or Not a valid pass. A live region, so it is announced too.
 */
export function VerdictPanel({ verdict, prompt }: { verdict: Verdict; prompt: string }) {
  const look = lookOf(verdict, prompt);
  const result = verdict.state === 'done' ? verdict.result.result : verdict.state;
  const idle = verdict.state === 'idle';
  return (
    <div
      role="status"
      aria-live="polite"
      aria-atomic="true"
      aria-label="Check-in result"
      data-result={result}
      className={cn(
        'w-full rounded-(--radius-card) px-5 transition-colors sm:px-8',
        idle ? 'py-5' : 'min-h-56 py-7 sm:py-9',
        look.tone,
      )}
    >
      {/* A new key per answer replays the entrance, so two answers in a row never look alike. */}
      <div
        key={verdict.state === 'done' ? verdict.seq : verdict.state}
        className={cn(
          'motion-safe:animate-[verdict-in_180ms_ease-out]',
          idle ? 'flex items-center gap-4' : 'flex flex-col items-center text-center',
        )}
      >
        {look.icon}
        <div className={cn('min-w-0', idle ? 'flex-1' : 'mt-3 w-full')}>
          <p className={cn('leading-none font-black tracking-tight', idle ? 'text-xl text-foreground' : 'text-[2.5rem] sm:text-6xl')}>
            {look.title}
          </p>
          {look.body}
          {verdict.state === 'done' && verdict.offline ? (
            <p className="mt-3 text-sm font-semibold opacity-90">Decided on this device (offline); it uploads when the network is back.</p>
          ) : null}
        </div>
      </div>
    </div>
  );
}
