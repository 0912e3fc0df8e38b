import { useCallback, useRef, useState, type ChangeEvent } from 'react';

/**
 * A form's text fields. `change(field)` is an input's onChange: it stores the value and tells
 * `onEdited` the form's values with it, so the field can be re-checked as it is typed into. The
 * values are kept in a ref as well: a page the server rendered replays what was typed before its
 * script ran as one change per field in the same tick (Input's adoptTyped), and each must build on
 * the one before.
 */
export function useFormValues<V extends Record<keyof V, string>>(initial: V, onEdited?: (field: keyof V & string, values: V) => void) {
  const [values, setValues] = useState(initial);
  const latest = useRef(initial);

  const change = (field: keyof V & string) => (event: ChangeEvent<HTMLInputElement>) => {
    const next = { ...latest.current, [field]: event.target.value };
    latest.current = next;
    setValues(next);
    onEdited?.(field, next);
  };
  const reset = useCallback(() => {
    latest.current = initial;
    setValues(initial);
  }, [initial]);
  return { values, change, reset };
}
