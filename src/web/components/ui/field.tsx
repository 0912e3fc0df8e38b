import type { ComponentProps, ReactNode } from 'react';
import { LIMITS } from '../../../core/constants.ts';
import { fieldsInError } from '../../../core/field-errors.ts';
import type { Checked } from '../../../core/validation.ts';
import { Input } from './input.tsx';
import { Label } from './label.tsx';

/** A labelled text input, the way every form lays one out. */
export function Field({ id, label, ...props }: ComponentProps<'input'> & { id: string; label: ReactNode }) {
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} {...props} />
    </div>
  );
}

/** A person's name as the shop's forms ask for it. */
export const NAME_INPUT = { name: 'name', autoComplete: 'name', placeholder: 'Jane Smith', maxLength: LIMITS.nameMax } as const;

/** An email address: no capitals or spell-checking forced on it, a phone's email keyboard. */
export const EMAIL_INPUT = {
  name: 'email',
  type: 'email',
  inputMode: 'email',
  autoComplete: 'email',
  autoCapitalize: 'off',
  spellCheck: false,
  placeholder: 'jane@example.com',
  maxLength: LIMITS.emailMax,
} as const;

/** A refused submit: the one message the form shows, and the fields it is about (none: the whole form). */
export interface FormProblem<F extends string = string> {
  message: string;
  fields: readonly F[];
}

/** The problem a message names, for the values that were submitted (see fieldsInError). */
export function formProblem<V extends object>(message: string, values: V): FormProblem<keyof V & string> {
  return { message, fields: fieldsInError(message, values) };
}

/** The message a check of the form's rules gives, or null when they pass (afterEdit's `firstError`). */
export function messageOf(checked: Checked<unknown>): string | null {
  return checked.ok ? null : checked.message;
}

/**
 * The problem once `field` has been edited to `values`: while the form's rules (`firstError`, the
 * message they give `values`, or null when they pass) still name the field, it stays marked; once
 * they do not, its mark goes, and the message with the last mark. A message about no field (a
 * declined payment) is not the fields' to clear: it stays until the next submit.
 */
export function afterEdit<F extends string, V extends object>(
  problem: FormProblem<F> | null,
  field: F,
  values: V,
  firstError: (values: V) => string | null,
): FormProblem<F> | null {
  if (!problem?.fields.includes(field)) return problem;
  const message = firstError(values);
  if (message !== null && (fieldsInError(message, values) as string[]).includes(field)) return problem;
  const fields = problem.fields.filter((marked) => marked !== field);
  return fields.length > 0 ? { ...problem, fields } : null;
}

/**
 * A field the problem is about is marked invalid and described by the message; the others are
 * left alone, so a wrong name does not paint the email red too.
 */
export function fieldError<F extends string>(problem: FormProblem<F> | null, field: F, errorId: string) {
  const invalid = problem?.fields.includes(field) ?? false;
  return { 'aria-invalid': invalid || undefined, 'aria-describedby': invalid ? errorId : undefined } as const;
}

/**
 * The form's own description: the message, when it is about no single field (a field that is
 * wrong already points at it), so every message is reachable from exactly one place.
 */
export function formError(problem: FormProblem | null, errorId: string): string | undefined {
  return problem && problem.fields.length === 0 ? errorId : undefined;
}

/** What each field of the shop's forms shares: required, read-only while it is sent, and its own error state. */
export function fieldState<F extends string>(problem: FormProblem<F> | null, field: F, errorId: string, busy: boolean) {
  return { required: true, readOnly: busy, ...fieldError(problem, field, errorId) } as const;
}
