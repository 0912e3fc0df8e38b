import { useCallback, useEffect, useRef, useState } from 'react';
import { afterEdit, type FormProblem } from './field.tsx';

/**
 * A form's one problem, as every public form keeps it: `refuse` shows a refused submit and moves
 * focus to the first field it marks, in the form's order (for a message about the whole form, the
 * submit button, which it describes, if focus was lost while the button was disabled), `edited`
 * re-checks a field as it is typed into (afterEdit), `clear` starts a new try. `formRef` goes on
 * the <form>.
 */
export function useFormProblem<F extends string>() {
  const [problem, setProblem] = useState<FormProblem<F> | null>(null);
  // Counts refusals, so focus moves after each refused submit and never while a field is edited.
  const [refusals, setRefusals] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    const form = formRef.current;
    if (refusals === 0 || !form) return;
    const field = form.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (field) return field.focus();
    if (document.activeElement === document.body || !document.activeElement) form.querySelector<HTMLElement>('[type="submit"]')?.focus();
  }, [refusals]);

  const refuse = useCallback((refused: FormProblem<F>) => {
    setProblem(refused);
    setRefusals((count) => count + 1);
  }, []);
  const clear = useCallback(() => setProblem(null), []);
  const edited = useCallback(
    <V extends object>(field: F, values: V, firstError: (values: V) => string | null) =>
      setProblem((current) => afterEdit(current, field, values, firstError)),
    [],
  );
  return { problem, refuse, clear, edited, formRef };
}
