import { ArrowDown, Check, FastForward, QrCode, ShieldCheck, Ticket, Trophy, Zap } from 'lucide-react';
import { useEffect, useRef, useState, type ComponentType, type RefObject } from 'react';
import { Link } from 'wouter';
import { PASS_PRICE_CENTS } from '../../../core/constants.ts';
import { dollarsOf } from '../../../core/money.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { lazyModule } from '../../lib/lazy-module.ts';

/** The events list, its call (with the API contract, and so zod) and its parts: not on the first load (ADR 0013). */
const upcomingEvents = lazyModule(() => import('./upcoming-events.tsx'));

const FEATURES = [
  { icon: Zap, title: 'Instant', text: 'Your pass is confirmed in seconds.' },
  { icon: FastForward, title: 'Skip Lines', text: 'Walk past the queue at the gate.' },
  { icon: Trophy, title: 'All Events', text: 'Good for any local sports event.' },
] as const;

const PASS_PERKS = [
  'Priority entry at any local sports event',
  'Valid once per event, shown on your phone',
  'Instant confirmation and email receipt',
] as const;

const price = `$${dollarsOf(PASS_PRICE_CENTS)}`;

function scrollToEvents(events: HTMLElement | null) {
  if (!events) return;
  const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  events.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
  events.focus({ preventScroll: true });
}

/** What says a visitor is there: the events list is read at the first of these, not on the first load. */
const SIGNS_OF_LIFE = ['scroll', 'pointermove', 'pointerdown', 'touchstart', 'keydown'] as const;

/**
 * True once the visitor scrolls, points, touches or types, or `ref` (the Any Event Pass card, the
 * list's neighbour) is on screen, or `want()` is called (Buy a Pass): the events list loads and is
 * read then. So the first load (and Lighthouse's, which does none of these) stays as it was, and
 * the list has arrived by the time a visitor scrolls down to it.
 */
function useWanted(ref: RefObject<HTMLElement | null>): [boolean, () => void] {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (wanted || !element) return;
    const want = () => setWanted(true);
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) want();
    });
    observer.observe(element);
    for (const type of SIGNS_OF_LIFE) window.addEventListener(type, want, { once: true, passive: true });
    return () => {
      observer.disconnect();
      for (const type of SIGNS_OF_LIFE) window.removeEventListener(type, want);
    };
  }, [ref, wanted]);
  return [wanted, () => setWanted(true)];
}

export interface LandingProps {
  onGetPass: () => void;
  /** The purchase form's query on `/` (a name without a value): Get Pass asks for it before the script runs. */
  formSearch: string;
}

export function Landing({ onGetPass, formSearch }: LandingProps) {
  const section = useRef<HTMLElement>(null);
  const passCard = useRef<HTMLDivElement>(null);
  const [wanted, want] = useWanted(passCard);
  const [UpcomingEvents, setUpcomingEvents] = useState<ComponentType | null>(null);
  useEffect(() => {
    if (!wanted) return;
    // Without the list (it could not load) the section is the Any Event Pass card alone, as before.
    upcomingEvents.load().then(
      (loaded) => setUpcomingEvents(() => loaded.UpcomingEvents),
      () => undefined,
    );
  }, [wanted]);
  return (
    <>
      <section
        aria-labelledby="hero-heading"
        className="relative isolate overflow-hidden bg-indigo-950 text-white"
      >
        <div aria-hidden="true" className="absolute inset-0 -z-10">
          <div className="absolute -top-40 -left-32 size-[32rem] rounded-full bg-indigo-500/30 blur-3xl" />
          <div className="absolute -right-24 bottom-[-12rem] size-[28rem] rounded-full bg-fuchsia-500/20 blur-3xl" />
          <div className="absolute inset-0 bg-[radial-gradient(rgba(255,255,255,0.07)_1px,transparent_1px)] [background-size:22px_22px]" />
        </div>

        <div className="mx-auto grid max-w-6xl sm:min-h-[calc(100svh-4rem)] items-center gap-12 px-4 py-16 sm:px-6 lg:grid-cols-[1.15fr_0.85fr] lg:py-20">
          <div className="flex flex-col items-center text-center lg:items-start lg:text-left">
            <p className="mb-6 inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/10 px-3.5 py-1.5 text-sm font-medium text-indigo-100">
              <Ticket className="size-4 text-amber-300" aria-hidden="true" />
              Local sports, no waiting
            </p>
            <h1
              id="hero-heading"
              className="max-w-2xl text-4xl leading-[1.05] font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl"
            >
              Skip the line at <span className="text-amber-300">every game</span>
            </h1>
            <p className="mt-6 max-w-xl text-lg text-pretty text-indigo-100/90">
              One digital pass gets you past the ticket queue at any local sports event. Buy it in seconds for just{' '}
              {price}, show it at the gate and walk straight in.
            </p>

            <ul className="mt-10 grid w-full max-w-xl grid-cols-3 gap-3 sm:gap-4">
              {FEATURES.map(({ icon: Icon, title, text }) => (
                <li
                  key={title}
                  className="flex flex-col items-center gap-2 rounded-xl border border-white/10 bg-white/5 px-2 py-4 text-center backdrop-blur-sm sm:px-4 lg:items-start lg:text-left"
                >
                  <span className="flex size-11 items-center justify-center rounded-lg bg-amber-300/15 text-amber-300">
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  <span className="text-sm font-semibold sm:text-base">{title}</span>
                  <span className="hidden text-sm text-indigo-100/75 sm:block">{text}</span>
                </li>
              ))}
            </ul>

            <Button
              variant="accent"
              size="lg"
              className="mt-10 w-full sm:w-auto"
              onClick={() => {
                want();
                scrollToEvents(section.current);
              }}
            >
              Buy a Pass
              <ArrowDown aria-hidden="true" />
            </Button>
          </div>

          <HeroTicket />
        </div>
      </section>

      <section
        ref={section}
        id="events"
        tabIndex={-1}
        aria-labelledby="events-heading"
        className="bg-background px-4 py-20 outline-none sm:px-6"
      >
        <div className="mx-auto max-w-6xl">
          <div className="mx-auto max-w-2xl text-center">
            <p className="text-sm font-semibold tracking-wider text-primary uppercase">Events</p>
            <h2 id="events-heading" className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">
              Any event, one price
            </h2>
            <p className="mt-4 text-lg text-muted-foreground">
              Football, basketball, hockey or the local derby: the same pass skips the line everywhere.
            </p>
          </div>

          {/* The list arrives after the page, so the card never moves for it: under the card, or on a
              wide screen beside it, the card still in the middle (a moved Get Pass took a press meant
              for it to an event). The list renders nothing without events. */}
          <div className="mt-12 items-start gap-8 has-[>section]:grid xl:has-[>section]:grid-cols-[minmax(0,1fr)_28rem_minmax(0,1fr)]">
            <Card ref={passCard} className="relative mx-auto w-full max-w-md overflow-hidden border-primary/20 shadow-xl shadow-primary/10 xl:col-start-2">
              <div aria-hidden="true" className="h-2 bg-linear-to-r from-primary via-fuchsia-500 to-amber-400" />
              <CardHeader className="items-start pt-7">
                <span className="mb-3 flex size-12 items-center justify-center rounded-xl bg-secondary text-primary">
                  <Ticket className="size-6" aria-hidden="true" />
                </span>
                <CardTitle as="h3" className="text-2xl">
                  Any Event Pass
                </CardTitle>
                <CardDescription className="text-base">Skip the line at any local sports event.</CardDescription>
              </CardHeader>
              <CardContent className="flex flex-col gap-6">
                <p className="flex items-baseline gap-2">
                  <span className="text-5xl font-extrabold tracking-tight">{price}</span>
                  <span className="text-muted-foreground">per pass</span>
                </p>
                <ul className="flex flex-col gap-3">
                  {PASS_PERKS.map((perk) => (
                    <li key={perk} className="flex items-start gap-3 text-sm">
                      <span className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full bg-success/15 text-success">
                        <Check className="size-3.5" strokeWidth={3} aria-hidden="true" />
                      </span>
                      {perk}
                    </li>
                  ))}
                </ul>
                {/* A form, so a press before React has taken over the page (a slow phone) still opens
                    the purchase form: the browser asks for /?buy= and the page opens there. */}
                <form
                  method="get"
                  action="/"
                  onSubmit={(event) => {
                    event.preventDefault();
                    onGetPass();
                  }}
                >
                  <Button type="submit" name={formSearch} size="lg" className="w-full">
                    <Ticket aria-hidden="true" />
                    Get Pass - {price}
                  </Button>
                </form>
              </CardContent>
            </Card>
            {UpcomingEvents && <UpcomingEvents />}
          </div>

          <p className="mx-auto mt-8 max-w-md text-center text-sm text-balance text-muted-foreground">
            <ShieldCheck className="mr-1.5 inline size-4 align-[-3px] text-success" aria-hidden="true" />
            No account needed. Instant confirmation. Email receipt sent.
          </p>
          <p className="mx-auto mt-3 max-w-md text-center text-sm text-muted-foreground">
            Lost your confirmation email?{' '}
            <Link href="/find-pass" className="font-medium text-primary underline underline-offset-4">
              Find my pass
            </Link>
          </p>
        </div>
      </section>
    </>
  );
}

/** A decorative pass beside the headline on wide screens. */
function HeroTicket() {
  return (
    <div aria-hidden="true" className="hidden justify-center lg:flex">
      <div className="relative w-80 rotate-3 rounded-2xl bg-white text-foreground shadow-2xl shadow-black/40 transition-transform hover:rotate-0">
        <div className="rounded-t-2xl bg-linear-to-br from-primary to-fuchsia-600 px-6 py-5 text-white">
          {/* Full white: 4.7:1 where the gradient is most fuchsia (white/80 was 3.3:1). */}
          <p className="text-xs font-semibold tracking-[0.2em] text-white uppercase">Skip-the-line pass</p>
          <p className="mt-1 text-2xl font-extrabold">Any Event</p>
        </div>
        <div className="relative border-b-2 border-dashed border-border px-6 py-5">
          <span className="absolute -bottom-3 -left-3 size-6 rounded-full bg-indigo-950" />
          <span className="absolute -right-3 -bottom-3 size-6 rounded-full bg-indigo-950" />
          <dl className="grid grid-cols-2 gap-4 text-sm">
            <div>
              <dt className="text-xs text-muted-foreground">Entry</dt>
              <dd className="font-semibold">Priority lane</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Price</dt>
              <dd className="font-semibold">{price}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Valid</dt>
              <dd className="font-semibold">Once per event</dd>
            </div>
            <div>
              <dt className="text-xs text-muted-foreground">Wait</dt>
              <dd className="font-semibold">0 min</dd>
            </div>
          </dl>
        </div>
        <div className="flex items-center justify-between px-6 py-5">
          <QrCode className="size-16 text-foreground" strokeWidth={1.5} />
          {/* 5.0:1 with the success token of styles.css (was 3.07:1). */}
          <span className="rounded-full bg-success/15 px-3 py-1 text-xs font-bold text-success">CONFIRMED</span>
        </div>
      </div>
    </div>
  );
}
