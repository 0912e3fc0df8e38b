import { useMutation } from '@tanstack/react-query';
import { LoaderCircle, MessageSquare, Send } from 'lucide-react';
import { useId, type FormEvent } from 'react';
import type { ContactInput } from '../../../core/contact.ts';
import { APP_NOTICES, NOTICES } from '../../../core/messages.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { EMAIL_INPUT, Field, fieldState, formError, formProblem, messageOf, NAME_INPUT } from '../../components/ui/field.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { useFormProblem } from '../../components/ui/use-form-problem.ts';
import { useFormValues } from '../../components/ui/use-form-values.ts';
import { lazyModule } from '../../lib/lazy-module.ts';
import { useScreenToasts } from '../../lib/screen-toasts.ts';

const contactApi = lazyModule(() => import('./contact-api.ts'));

const EMPTY = { name: '', email: '' };

/**
 * Get in Touch: a visitor asks for a confirmation email (SPEC sections 4, 5, 8): idle, then
 * submitting, then a success toast (and the form cleared) or an error toast. Its toasts go when
 * the landing screen does, so none is left over the purchase form.
 */
export function ContactSection() {
  const { problem, refuse, clear, edited, formRef } = useFormProblem<keyof ContactInput>();
  // A field is re-checked only once a submit was refused, and the rules loaded before that.
  const recheck = (field: keyof ContactInput, now: ContactInput) =>
    void contactApi
      .load()
      .then((rules) => edited(field, now, (typed) => messageOf(rules.validateContact(typed))))
      .catch(() => undefined);
  const { values, change, reset } = useFormValues(EMPTY, recheck);
  const toasts = useScreenToasts();
  const { mutateAsync: send, isPending: submitting } = useMutation({
    mutationFn: async (input: ContactInput) => (await contactApi.load()).requestConfirmation(input),
  });
  const id = useId();
  const errorId = `${id}-error`;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    toasts.dismiss();
    let rules: Awaited<ReturnType<typeof contactApi.load>>;
    try {
      rules = await contactApi.load();
    } catch {
      toasts.error(APP_NOTICES.loadFailed);
      return;
    }
    const input = rules.validateContact(values);
    if (!input.ok) return refuse(formProblem(input.message, values));
    clear();
    const outcome = await send(input.value);
    if (outcome.ok) {
      toasts.success(NOTICES.contactSuccessTitle, { description: NOTICES.contactSuccessText });
      reset();
    } else {
      toasts.error(NOTICES.contactErrorTitle, { description: outcome.message });
    }
  };

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
          <form
            noValidate
            onFocus={contactApi.prefetch}
            onPointerOver={contactApi.prefetch}
            ref={formRef}
            onSubmit={(event) => void onSubmit(event)}
            className="flex flex-col gap-5"
            aria-describedby={formError(problem, errorId)}
          >
            <div className="grid gap-5 sm:grid-cols-2">
              <Field
                id={`${id}-name`}
                label="Name"
                {...NAME_INPUT}
                value={values.name}
                onChange={change('name')}
                {...fieldState(problem, 'name', errorId, submitting)}
              />
              <Field
                id={`${id}-email`}
                label="Email"
                {...EMAIL_INPUT}
                value={values.email}
                onChange={change('email')}
                {...fieldState(problem, 'email', errorId, submitting)}
              />
            </div>
            <FormError id={errorId} message={problem?.message} />
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
