import type { PassPage } from '../../../core/api/pass-page.ts';
import { cn } from '../../lib/cn.ts';

/** What a pass's state reads as: the status line, then each admission so far. */
export function stateText(state: PassPage['state']): { status: string; admissions: string[] } {
  const admissions = state.admissions.map((admission) => `Used at ${admission.event} on ${admission.at}`);
  switch (state.status) {
    case 'voided':
      return { status: 'Voided: it no longer admits', admissions: [] };
    case 'used':
      return { status: admissions[0] ?? 'Used', admissions: admissions.slice(1) };
    case 'valid':
      return { status: 'Valid', admissions };
  }
}

/**
 * Where the pass stands, under the heading: Valid (with the events it was already admitted at: the
 * home pass admits once per event), Used at an event, or Voided. A live region, so a change after
 * the page opened (the answer arriving) is read out.
 */
export function PassState({ state }: { state: PassPage['state'] }) {
  const { status, admissions } = stateText(state);
  const tone =
    state.status === 'valid'
      ? 'border-success/30 bg-success/10 text-success'
      : state.status === 'voided'
        ? 'border-destructive/30 bg-destructive-soft text-destructive'
        : 'border-amber-300/60 bg-amber-50 text-amber-950';
  return (
    <div role="status" className="mt-4 flex flex-col items-center gap-2">
      <p className={cn('rounded-full border px-4 py-1.5 text-sm font-bold', tone)}>
        <span className="sr-only">Pass status: </span>
        {status}
      </p>
      {admissions.length > 0 && (
        <ul className="text-sm text-muted-foreground">
          {admissions.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
