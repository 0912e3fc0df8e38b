import { useMutation } from '@tanstack/react-query';
import { CalendarPlus, LoaderCircle, Pencil, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { toast } from '../../../lib/toasts.ts';
import { eventInputSchema } from '../../../../core/events.ts';
import { check } from '../../../../core/validation.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { FormError } from '../../../components/ui/form-error.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import type { StaffEvent } from '../../../lib/staff-events-api.ts';
import { EMPTY_EVENT_FORM, formFromEvent, saveEvent, type EventForm } from './events-api.ts';

export interface EventEditorProps {
  /** The event being edited, or null to create one. */
  editing: StaffEvent | null;
  onSaved: () => void;
  onCancelEdit: () => void;
}

/**
 * Create an event, or edit the one picked in the list. The server checks it again with the same
 * schema. Keyed by the event edited, so picking another starts from that event's values.
 */
export function EventEditor({ editing, onSaved, onCancelEdit }: EventEditorProps) {
  const id = useId();
  const [values, setValues] = useState<EventForm>(() => (editing ? formFromEvent(editing) : EMPTY_EVENT_FORM));
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync: save, isPending: saving } = useMutation({
    mutationFn: (form: EventForm) => saveEvent(editing?.id ?? null, form),
  });
  const title = useRef<HTMLInputElement>(null);
  const errorId = `${id}-error`;

  useEffect(() => {
    if (editing) {
      title.current?.closest('section')?.scrollIntoView({ block: 'start', behavior: 'smooth' });
      title.current?.focus({ preventScroll: true });
    }
  }, [editing]);

  const update = (field: keyof EventForm) => (event: ChangeEvent<HTMLInputElement>) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const checked = check(eventInputSchema, values);
    if (!checked.ok) {
      setError(checked.message);
      return;
    }
    setError(null);
    const result = await save(values);
    if (result.ok) {
      toast.success(editing ? 'Event updated' : 'Event created', { description: result.data.title });
      setValues(EMPTY_EVENT_FORM);
      onSaved();
      return;
    }
    setError(
      result.kind === 'network'
        ? 'The shop could not be reached. Check the connection and try again.'
        : result.message || 'The event could not be saved. Please try again.',
    );
  };

  const fieldProps = {
    required: true,
    readOnly: saving,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
  } as const;
  // Capacity and the sales window may stay empty; each keeps its hint as its description.
  const optionalProps = (hint: string) =>
    ({ readOnly: saving, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${hint} ${errorId}` : hint }) as const;

  return (
    <Card role="region" aria-labelledby={`${id}-title`} className="scroll-mt-24">
      <section>
        <CardHeader>
          <CardTitle as="h2" id={`${id}-title`} className="flex items-center gap-2">
            {editing ? <Pencil className="size-5 text-primary" aria-hidden="true" /> : <CalendarPlus className="size-5 text-primary" aria-hidden="true" />}
            {editing ? 'Edit event' : 'Create an event'}
          </CardTitle>
          <CardDescription>
            {editing
              ? `Changes show on the event page at once. Passes already sold stay valid.`
              : 'Each event gets its own purchase page and its own door list.'}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-4 sm:grid-cols-6">
            <div className="flex flex-col gap-2 sm:col-span-6">
              <Label htmlFor={`${id}-title-input`}>Title</Label>
              <Input ref={title} id={`${id}-title-input`} maxLength={100} placeholder="Riverside FC vs. Hill United" value={values.title} onChange={update('title')} {...fieldProps} />
            </div>
            <div className="flex flex-col gap-2 sm:col-span-2">
              <Label htmlFor={`${id}-date`}>Date</Label>
              <Input id={`${id}-date`} type="date" value={values.date} onChange={update('date')} {...fieldProps} />
            </div>
            <div className="flex flex-col gap-2 sm:col-span-2">
              <Label htmlFor={`${id}-time`}>Time</Label>
              <Input id={`${id}-time`} type="time" value={values.time} onChange={update('time')} {...fieldProps} />
            </div>
            <div className="flex flex-col gap-2 sm:col-span-2">
              <Label htmlFor={`${id}-price`}>Price ($)</Label>
              <div className="relative">
                <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-muted-foreground" aria-hidden="true">
                  $
                </span>
                <Input
                  id={`${id}-price`}
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder="3.00"
                  maxLength={8}
                  value={values.price}
                  onChange={update('price')}
                  className="pl-7 tabular-nums"
                  {...fieldProps}
                />
              </div>
            </div>
            <div className="flex flex-col gap-2 sm:col-span-6">
              <Label htmlFor={`${id}-location`}>Location</Label>
              <Input id={`${id}-location`} maxLength={200} placeholder="Riverside Park, North Gate" value={values.location} onChange={update('location')} {...fieldProps} />
            </div>
            <div className="flex flex-col gap-2 sm:col-span-2">
              <Label htmlFor={`${id}-capacity`}>Capacity</Label>
              <Input
                id={`${id}-capacity`}
                inputMode="numeric"
                autoComplete="off"
                placeholder="No limit"
                maxLength={6}
                value={values.capacity}
                onChange={update('capacity')}
                className="tabular-nums"
                {...optionalProps(`${id}-capacity-hint`)}
              />
              <p id={`${id}-capacity-hint`} className="text-xs text-muted-foreground">
                Passes on sale in all. Empty: no limit.
              </p>
            </div>
            <div className="flex flex-col gap-2 sm:col-span-2">
              <Label htmlFor={`${id}-sales-open`}>Sales open</Label>
              <Input id={`${id}-sales-open`} type="datetime-local" value={values.salesOpen} onChange={update('salesOpen')} {...optionalProps(`${id}-sales-open-hint`)} />
              <p id={`${id}-sales-open-hint`} className="text-xs text-muted-foreground">
                Empty: on sale as soon as it is listed.
              </p>
            </div>
            <div className="flex flex-col gap-2 sm:col-span-2">
              <Label htmlFor={`${id}-sales-close`}>Sales close</Label>
              <Input id={`${id}-sales-close`} type="datetime-local" value={values.salesClose} onChange={update('salesClose')} {...optionalProps(`${id}-sales-close-hint`)} />
              <p id={`${id}-sales-close-hint`} className="text-xs text-muted-foreground">
                Empty: sales close when the event starts.
              </p>
            </div>
            <div className="sm:col-span-6">
              <FormError id={errorId} message={error} />
            </div>
            <div className="flex flex-col-reverse gap-2 sm:col-span-6 sm:flex-row sm:justify-end">
              {editing && (
                <Button variant="ghost" onClick={onCancelEdit} disabled={saving}>
                  <X aria-hidden="true" />
                  Cancel
                </Button>
              )}
              <Button type="submit" disabled={saving}>
                {saving ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : editing ? <Pencil aria-hidden="true" /> : <CalendarPlus aria-hidden="true" />}
                {editing ? 'Save changes' : 'Create event'}
              </Button>
            </div>
          </form>
        </CardContent>
      </section>
    </Card>
  );
}
