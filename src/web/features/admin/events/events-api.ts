import { createEvent, updateEvent } from '../../../../core/api/events.ts';
import type { ShopEvent } from '../../../../core/events.ts';
import { dollarsOf } from '../../../../core/money.ts';
import { call, type ApiResult, type CallOptions } from '../../../lib/api-client.ts';

/** The event form as typed: the price in dollars ("12.50"); the server checks it with eventInputSchema. */
export interface EventForm {
  title: string;
  date: string;
  time: string;
  location: string;
  price: string;
}

/** Creates an event (no id) or changes one. A 400 carries one of EVENT_MESSAGES. */
export function saveEvent(id: number | null, form: EventForm, options: CallOptions = {}): Promise<ApiResult<ShopEvent>> {
  const body = { title: form.title, date: form.date, time: form.time, location: form.location, price: form.price };
  return id === null ? call(createEvent, { body }, options) : call(updateEvent, { params: { id }, body }, options);
}

/** The form filled in from a stored event (to edit it): cents back to dollars as staff would type them. */
export function formFromEvent(event: ShopEvent): EventForm {
  const dollars = dollarsOf(event.priceCents);
  return {
    title: event.title,
    date: event.date,
    time: event.time,
    location: event.location,
    price: Number.isInteger(dollars) ? String(dollars) : dollars.toFixed(2),
  };
}

export const EMPTY_EVENT_FORM: EventForm = { title: '', date: '', time: '', location: '', price: '' };
