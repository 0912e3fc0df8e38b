import type { ComponentProps, ReactNode } from 'react';
import { LIMITS } from '../../../core/constants.ts';
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

/** What each field of a form shares: required, read-only while it is sent, tied to the form's one error. */
export function fieldState(error: string | null, errorId: string, busy: boolean) {
  return {
    required: true,
    readOnly: busy,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
  } as const;
}
