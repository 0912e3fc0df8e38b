import { createEvent, updateEvent } from '../../../../core/api/events.ts';
import { dollarsOf } from '../../../../core/money.ts';
import { call, type ApiResult, type CallOptions } from '../../../lib/api-client.ts';
import type { StaffEvent } from '../../../lib/staff-events-api.ts';

/**
 * The event form as typed: the price in dollars ("12.50"); capacity and the sales window empty
 * for none (no limit, on sale once listed, closing when the event starts). The server checks it
 * with eventInputSchema.
 */
export interface EventForm {
  title: string;
  date: string;
  time: string;
  location: string;
  price: string;
  capacity: string;
  /** YYYY-MM-DDTHH:MM as a datetime-local input writes it, in the shop's time zone. */
  salesOpen: string;
  salesClose: string;
}

/** Creates an event (no id) or changes one. A 400 carries one of EVENT_MESSAGES. */
export function saveEvent(id: number | null, form: EventForm, options: CallOptions = {}): Promise<ApiResult<StaffEvent>> {
  const { title, date, time, location, price, capacity, salesOpen, salesClose } = form;
  const body = { title, date, time, location, price, capacity, salesOpen, salesClose };
  return id === null ? call(createEvent, { body }, options) : call(updateEvent, { params: { id }, body }, options);
}

/** The form filled in from a stored event (to edit it): cents back to dollars as staff would type them. */
export function formFromEvent(event: Omit<StaffEvent, 'sold' | 'checkIns'>): EventForm {
  const dollars = dollarsOf(event.priceCents);
  return {
    title: event.title,
    date: event.date,
    time: event.time,
    location: event.location,
    price: Number.isInteger(dollars) ? String(dollars) : dollars.toFixed(2),
    capacity: event.capacity === null ? '' : String(event.capacity),
    salesOpen: event.salesOpen ?? '',
    salesClose: event.salesClose ?? '',
  };
}

export const EMPTY_EVENT_FORM: EventForm = { title: '', date: '', time: '', location: '', price: '', capacity: '', salesOpen: '', salesClose: '' };

/** What the Events list says of an event's passes: "120 / 500 sold, 37 checked in", or "120 sold, ..." with no capacity. */
export function passesSummary(event: Pick<StaffEvent, 'sold' | 'capacity' | 'checkIns'>, count: (value: number) => string = String): string {
  const sold = event.capacity === null ? `${count(event.sold)} sold` : `${count(event.sold)} / ${count(event.capacity)} sold`;
  return `${sold}, ${count(event.checkIns)} checked in`;
}
