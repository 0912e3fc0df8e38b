import type { ContactInput } from '../../../core/contact.ts';
import { NOTICES } from '../../../core/messages.ts';

export type ContactOutcome = { ok: true } | { ok: false; message: string };

/**
 * POST /api/contact. Any refusal carries the server's message (a limit, a rule); when the shop
 * cannot be reached or says nothing useful, SPEC section 8's fallback text is shown.
 */
export async function requestConfirmation(input: ContactInput, fetchImpl: typeof fetch = fetch): Promise<ContactOutcome> {
  try {
    const response = await fetchImpl('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    if (response.ok) return { ok: true };
    const body = (await response.json().catch(() => null)) as { error?: { message?: unknown } } | null;
    const message = body?.error?.message;
    return { ok: false, message: typeof message === 'string' && message ? message : NOTICES.contactErrorFallback };
  } catch {
    return { ok: false, message: NOTICES.contactErrorFallback };
  }
}
