import { LoaderCircle, MailSearch, Send } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { FIND_PASS_TEXTS, findPassInputSchema } from '../../../core/find-pass.ts';
import { NOTICES } from '../../../core/messages.ts';
import { check } from '../../../core/validation.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { EMAIL_INPUT, Field, fieldState, formError, formProblem, messageOf } from '../../components/ui/field.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { useFormProblem } from '../../components/ui/use-form-problem.ts';
import { useFindPass } from './find-pass-api.ts';

/**
 * Route `/find-pass` (loaded on demand): a buyer asks for one email listing the passes bought with
 * an address. The answer on screen is the same whether or not there are any; only a refusal (a
 * rule, the client's limit, no connection) is shown otherwise.
 */
export function FindPassPage() {
  const [email, setEmail] = useState('');
  const { problem, refuse, clear, edited, formRef } = useFormProblem<'email'>();
  const { mutateAsync: send, isPending: sending } = useFindPass();
  const [answered, setAnswered] = useState(false);
  const answer = useRef<HTMLParagraphElement>(null);
  const id = useId();
  const errorId = `${id}-error`;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    const input = check(findPassInputSchema, { email });
    if (!input.ok) return refuse(formProblem(input.message, { email }));
    clear();
    const result = await send(input.value);
    if (!result.ok) {
      refuse({ message: (result.kind === 'server' && result.message) || NOTICES.contactErrorFallback, fields: [] });
      return;
    }
    setAnswered(true);
    // The answer replaces nothing on screen: move focus to it so a screen reader reads it out.
    requestAnimationFrame(() => answer.current?.focus());
  };

  return (
    <section aria-labelledby={`${id}-title`} className="flex-1 bg-muted/50 px-4 py-16 sm:px-6">
      <Card className="mx-auto max-w-lg">
        <CardHeader>
          <span className="mb-2 flex size-12 items-center justify-center rounded-xl bg-secondary text-primary">
            <MailSearch className="size-6" aria-hidden="true" />
          </span>
          <CardTitle as="h1" id={`${id}-title`} className="text-2xl">
            {FIND_PASS_TEXTS.title}
          </CardTitle>
          <CardDescription className="text-base">{FIND_PASS_TEXTS.intro}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          <form ref={formRef} noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-5" aria-describedby={formError(problem, errorId)}>
            <Field
              id={`${id}-email`}
              label={FIND_PASS_TEXTS.emailLabel}
              {...EMAIL_INPUT}
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                setAnswered(false);
                edited('email', { email: event.target.value }, (typed) => messageOf(check(findPassInputSchema, typed)));
              }}
              {...fieldState(problem, 'email', errorId, sending)}
            />
            <FormError id={errorId} message={problem?.message} />
            <Button type="submit" className="w-full sm:w-auto sm:self-start" disabled={sending}>
              {sending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
              {sending ? FIND_PASS_TEXTS.sending : FIND_PASS_TEXTS.submit}
            </Button>
          </form>
          {answered && (
            <p ref={answer} tabIndex={-1} role="status" className="rounded-lg border border-success/30 bg-success/10 p-4 text-sm outline-none">
              {FIND_PASS_TEXTS.answer}
            </p>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
