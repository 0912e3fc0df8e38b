import type { App } from '../app.ts';
import type { MailTransport, OutgoingMail } from '../mail/transport.ts';

/**
 * A mail transport that keeps what it is given (give `transport` to the app as `mailTransport`),
 * so a test reads the mails a buyer or visitor would receive.
 */
export function keptMail() {
  const sent: OutgoingMail[] = [];
  const transport: MailTransport = {
    send: async (mail) => {
      sent.push(mail);
      return {};
    },
    close: () => {},
  };
  /** Sends what the app's outbox holds now; the mails of this round that `which` picks. */
  const deliver = async (app: App, which: (mail: OutgoingMail) => boolean) => {
    sent.length = 0;
    await app.outbox.runOnce();
    return sent.filter(which);
  };
  return { sent, transport, deliver };
}
