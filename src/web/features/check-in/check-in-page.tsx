import { ArrowLeft, CalendarDays, Keyboard, LogOut, MapPin, RefreshCw, Users } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { ADMIN_TEXT } from '../../../core/staff-messages.ts';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { useSession } from '../../lib/session-api.ts';
import { useSignOut } from '../../lib/use-sign-out.ts';
import { formatCount, formatEventDate, formatEventTime, formatMoment } from '../../lib/format.ts';
import type { CheckIn, DoorEvent } from './check-in-api.ts';
import { passIdOf } from './check-in-code.ts';
import { QrScanner } from './qr-scanner.tsx';
import { DoorStatusBar, useCheckInManifest } from './door-status.tsx';
import { useCheckIn } from './use-check-in.ts';
import { VerdictPanel } from './verdict-panel.tsx';

const selectClass = cn(
  'h-12 w-full min-w-0 cursor-pointer appearance-none rounded-lg border border-input bg-card bg-no-repeat pr-10 pl-3 text-base font-semibold text-foreground shadow-xs',
  'bg-[url("data:image/svg+xml,%3Csvg%20xmlns=%27http://www.w3.org/2000/svg%27%20viewBox=%270%200%2024%2024%27%20fill=%27none%27%20stroke=%27%236b6b80%27%20stroke-width=%272%27%3E%3Cpath%20d=%27m6%209%206%206%206-6%27/%3E%3C/svg%3E")] bg-size-[1.25rem] bg-position-[right_0.75rem_center]',
  'focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/40',
);

function eventLabel(event: DoorEvent): string {
  return `${event.title} · ${formatEventDate(event.date)}, ${formatEventTime(event.time)}`;
}

/**
 * Route `/check-in` (door staff and admins): the door. Pick the event (today's is preselected, found on the
 * shop's clock, `timeZone`), then scan or type each pass.
 */
export function CheckInPage({ timeZone }: { timeZone?: string }) {
  const id = useId();
  const door = useCheckIn(timeZone);
  // Door staff have no panel to go back to (ADR 0028): they sign out here instead.
  const session = useSession();
  const admin = session.status === 'ready' && session.isAdmin;
  useCheckInManifest();
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string | null>(null);
  const noEvent = door.event === null;
  const checking = door.verdict.state === 'checking';

  const submitTyped = async (formEvent: FormEvent<HTMLFormElement>) => {
    formEvent.preventDefault();
    if (!typed.trim()) {
      setTypedError('Enter the pass ID printed under the QR code.');
      return;
    }
    setTypedError(null);
    await door.check(typed);
  };

  // A typed pass that was found is done with: clear the field for the next one.
  const verdict = door.verdict;
  const lastResult = verdict.state === 'done' ? verdict.result.result : null;
  const [clearedFor, setClearedFor] = useState<number | null>(null);
  if (verdict.state === 'done' && lastResult !== 'invalid' && clearedFor !== verdict.seq && typed) {
    setClearedFor(verdict.seq);
    setTyped('');
  }

  const pendingId = door.pendingCode ? passIdOf(door.pendingCode) : null;
  const prompt = noEvent
    ? pendingId
      ? `Choose the event above to check pass ${pendingId}.`
      : 'Choose the event you are admitting to.'
    : 'Scan a pass or type its ID.';

  return (
    <div className="flex-1 bg-muted/50">
      <div className="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-5 sm:gap-5 sm:px-6 sm:py-10">
        <header className="flex items-end justify-between gap-3">
          <div className="min-w-0">
            {admin ? (
              <Link
                to="/admin"
                className="-ml-1 inline-flex items-center gap-1 rounded px-1 text-sm font-semibold text-muted-foreground hover:text-foreground"
              >
                <ArrowLeft className="size-4" aria-hidden="true" />
                Admin Panel
              </Link>
            ) : (
              <DoorSignOut />
            )}
            <h1 className="mt-1 text-3xl font-extrabold tracking-tight sm:text-4xl">Check-in</h1>
          </div>
          <p className="pb-1 text-right text-sm text-muted-foreground">Valid once per event</p>
        </header>

        <Card className="p-4 sm:p-5">
          {door.eventsStatus === 'loading' && door.events.length === 0 ? (
            <Spinner className="py-3">Loading events...</Spinner>
          ) : door.eventsStatus === 'error' && door.events.length === 0 ? (
            <div className="flex flex-col items-start gap-3 text-sm sm:flex-row sm:items-center sm:justify-between">
              <p className="text-muted-foreground">The events could not be loaded.</p>
              <Button variant="outline" onClick={door.reloadEvents}>
                <RefreshCw aria-hidden="true" />
                Try again
              </Button>
            </div>
          ) : door.events.length === 0 ? (
            <div className="flex flex-col gap-3 text-sm">
              <p className="font-semibold">There are no events yet.</p>
              {admin ? (
                <>
                  <p className="text-muted-foreground">Create the event in the Admin Panel first; then come back here to admit its guests.</p>
                  <Link to="/admin?tab=events" className={buttonVariants({ variant: 'outline', className: 'self-start' })}>
                    <CalendarDays aria-hidden="true" />
                    Create an event
                  </Link>
                </>
              ) : (
                <p className="text-muted-foreground">Ask an admin to create the event; then come back here to admit its guests.</p>
              )}
            </div>
          ) : (
            <div className="flex flex-col gap-2">
              <Label htmlFor={`${id}-event`}>Event</Label>
              <select
                id={`${id}-event`}
                value={door.event?.id ?? ''}
                onChange={(change) => door.chooseEvent(change.target.value ? Number(change.target.value) : null)}
                className={selectClass}
              >
                <option value="">Choose the event...</option>
                {door.events.map((event) => (
                  <option key={event.id} value={event.id}>
                    {eventLabel(event)}
                  </option>
                ))}
              </select>
              {door.event && (
                <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
                  <span className="inline-flex items-center gap-1.5">
                    <CalendarDays className="size-4" aria-hidden="true" />
                    {formatEventDate(door.event.date)}, {formatEventTime(door.event.time)}
                  </span>
                  <span className="inline-flex min-w-0 items-center gap-1.5">
                    <MapPin className="size-4 shrink-0" aria-hidden="true" />
                    <span className="truncate">{door.event.location}</span>
                  </span>
                </p>
              )}
            </div>
          )}
        </Card>

        <DoorStatusBar status={door.door} eventChosen={!noEvent} />

        <VerdictPanel verdict={door.verdict} prompt={prompt} />
        {door.verdict.state === 'failed' && (
          <Button size="lg" variant="outline" onClick={() => void door.check(verdict.state === 'failed' ? verdict.code : '')}>
            <RefreshCw aria-hidden="true" />
            Try again
          </Button>
        )}

        <Card className={cn('flex flex-col gap-5 p-4 sm:p-5', noEvent && 'opacity-60')} aria-disabled={noEvent}>
          <QrScanner onCode={(text) => void door.check(text)} onScanNext={door.clearVerdict} disabled={noEvent} />

          <div className="flex items-center gap-3 text-xs font-semibold tracking-wider text-muted-foreground uppercase">
            <span className="h-px flex-1 bg-border" />
            or type it
            <span className="h-px flex-1 bg-border" />
          </div>

          <form noValidate onSubmit={(formEvent) => void submitTyped(formEvent)} className="flex flex-col gap-2">
            <Label htmlFor={`${id}-pass`}>Pass ID</Label>
            <div className="flex gap-2">
              <div className="relative min-w-0 flex-1">
                <Keyboard className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
                <Input
                  id={`${id}-pass`}
                  name="code"
                  value={typed}
                  onChange={(change) => setTyped(change.target.value)}
                  placeholder="e.g. 3F2A9C0B1D"
                  autoComplete="off"
                  autoCorrect="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  enterKeyHint="go"
                  maxLength={500}
                  disabled={noEvent}
                  aria-invalid={typedError ? true : undefined}
                  aria-describedby={typedError ? `${id}-pass-error` : undefined}
                  className="h-12 pl-9 font-mono text-lg tracking-widest uppercase placeholder:font-sans placeholder:text-base placeholder:tracking-normal placeholder:normal-case sm:text-lg"
                />
              </div>
              <Button type="submit" size="lg" disabled={noEvent || checking} className="px-5">
                Check in
              </Button>
            </div>
            <FormError id={`${id}-pass-error`} message={typedError} />
          </form>
        </Card>

        {door.event && <CheckInList count={door.event.checkIns} checkIns={door.checkIns} />}
      </div>
    </div>
  );
}

function CheckInList({ count, checkIns }: { count: number; checkIns: CheckIn[] | null }) {
  const id = useId();
  return (
    <Card aria-labelledby={`${id}-title`} role="region">
      <CardContent className="flex flex-col gap-4 p-4 sm:p-5">
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
          <h2 id={`${id}-title`} className="text-lg font-bold tracking-tight whitespace-nowrap">
            Recent check-ins
          </h2>
          <div
            role="group"
            aria-labelledby={`${id}-count`}
            className="flex shrink-0 items-center gap-2 rounded-xl bg-secondary px-3 py-2 whitespace-nowrap"
          >
            <Users className="size-5 text-primary" aria-hidden="true" />
            <span className="text-2xl leading-none font-extrabold tabular-nums">{formatCount(count)}</span>
            <span id={`${id}-count`} className="text-sm font-medium text-secondary-foreground">
              Checked in
            </span>
          </div>
        </div>
        {checkIns === null ? (
          <Spinner className="py-6">Loading check-ins...</Spinner>
        ) : checkIns.length === 0 ? (
          <p className="rounded-lg border border-dashed py-8 text-center text-sm text-muted-foreground">No one has checked in yet.</p>
        ) : (
          <ol className="-mx-4 divide-y border-y sm:mx-0 sm:rounded-xl sm:border" aria-label="Check-ins, newest first">
            {checkIns.map((entry) => (
              <li key={`${entry.orderId}-${entry.checkedInAt}`} className="flex items-center gap-3 px-4 py-3">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-semibold">{entry.name}</p>
                  <p className="font-mono text-xs tracking-widest text-muted-foreground">{entry.orderId}</p>
                </div>
                <time dateTime={entry.checkedInAt} className="shrink-0 text-sm text-muted-foreground tabular-nums">
                  {formatMoment(entry.checkedInAt)}
                </time>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

/** Door staff's way out: the server ends the session, then the device's passes and queue are dropped (clearSession). */
function DoorSignOut() {
  const { signOut, signingOut } = useSignOut();
  return (
    <Button variant="ghost" size="sm" className="-ml-2" disabled={signingOut} onClick={signOut}>
      <LogOut aria-hidden="true" />
      {ADMIN_TEXT.signOut}
    </Button>
  );
}
