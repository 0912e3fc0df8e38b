import { isMailKind, MAIL_KINDS, type MailKind, type MailPayload, parseMailPayload } from './mail-kinds.ts';
import {
  accountVerificationMail,
  type MailContext,
  passesOfAddressMail,
  passVoidedMail,
  purchaseConfirmationMail,
  type RenderedMail,
} from './templates.ts';

/** Each kind's template; the payload reaching it was parsed with the kind's schema (mail-kinds.ts). */
const renderers: { [K in MailKind]: (context: MailContext, payload: MailPayload<K>) => RenderedMail } = {
  [MAIL_KINDS.purchaseConfirmation]: purchaseConfirmationMail,
  // Get in Touch and Find my pass mail the same thing: the passes bought with the address.
  [MAIL_KINDS.contactConfirmation]: passesOfAddressMail,
  [MAIL_KINDS.accountVerification]: accountVerificationMail,
  [MAIL_KINDS.passLookup]: passesOfAddressMail,
  [MAIL_KINDS.passVoided]: passVoidedMail,
};

/** The message an outbox row stands for; throws for an unknown kind or a malformed payload. */
export function renderMail(context: MailContext, kind: string, payload: unknown): RenderedMail {
  if (!isMailKind(kind)) throw new Error(`unknown mail kind ${kind}`);
  return render(context, kind, parseMailPayload(kind, typeof payload === 'string' ? JSON.parse(payload) : payload));
}

/** One kind's template with its own payload (a generic call TypeScript can check, unlike renderers[kind] over a union). */
function render<K extends MailKind>(context: MailContext, kind: K, payload: MailPayload<K>): RenderedMail {
  return (renderers[kind] as (context: MailContext, payload: MailPayload<K>) => RenderedMail)(context, payload);
}
