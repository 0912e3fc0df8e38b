import { useMutation } from '@tanstack/react-query';
import { LoaderCircle, MessageSquare, Send } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { contactInputSchema, type ContactInput } from '../../../core/contact.ts';
import { NOTICES } from '../../../core/messages.ts';
import { check } from '../../../core/validation.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { EMAIL_INPUT, Field, fieldState, NAME_INPUT } from '../../components/ui/field.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { requestConfirmation } from './request-confirmation.ts';

const EMPTY = { name: '', email: '' };

/**
 * Get in Touch: a visitor asks for a confirmation email (SPEC sections 4, 5, 8): idle, then
 * submitting, then a success toast (and the form cleared) or an error toast.
 */
export function ContactSection() {
  const [values, setValues] = useState(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync: send, isPending: submitting } = useMutation({ mutationFn: (input: ContactInput) => requestConfirmation(input) });
  const id = useId();
  const errorId = `${id}-error`;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const input = check(contactInputSchema, values);
    if (!input.ok) return setError(input.message);
    setError(null);
    const outcome = await send(input.value);
    if (outcome.ok) {
      toast.success(NOTICES.contactSuccessTitle, { description: NOTICES.contactSuccessText });
      setValues(EMPTY);
    } else {
      toast.error(NOTICES.contactErrorTitle, { description: outcome.message });
    }
  };

  const fieldProps = fieldState(error, errorId, submitting);

  return (
    <section aria-labelledby={`${id}-title`} className="border-t bg-muted/50 px-4 py-20 sm:px-6">
      <Card className="mx-auto max-w-lg">
        <CardHeader>
          <span className="mb-2 flex size-12 items-center justify-center rounded-xl bg-secondary text-primary">
            <MessageSquare className="size-6" aria-hidden="true" />
          </span>
          <CardTitle as="h2" id={`${id}-title`} className="text-2xl">
            Get in Touch
          </CardTitle>
          <CardDescription className="text-base">
            Need your confirmation email? Leave your name and email and we will send it to you.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <Field
                id={`${id}-name`}
                label="Name"
                {...NAME_INPUT}
                value={values.name}
                onChange={(event) => setValues((current) => ({ ...current, name: event.target.value }))}
                {...fieldProps}
              />
              <Field
                id={`${id}-email`}
                label="Email"
                {...EMAIL_INPUT}
                value={values.email}
                onChange={(event) => setValues((current) => ({ ...current, email: event.target.value }))}
                {...fieldProps}
              />
            </div>
            <FormError id={errorId} message={error} />
            <Button type="submit" variant="secondary" className="w-full sm:w-auto sm:self-start" disabled={submitting}>
              {submitting ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
              {submitting ? 'Sending...' : 'Send'}
            </Button>
          </form>
        </CardContent>
      </Card>
    </section>
  );
}
