import { useEffect, useMemo, useRef } from 'react';
import { toast, type ExternalToast } from './toasts.ts';

/** Errors stay a little longer than the Toaster's 4 s: they say what to do next. */
export const ERROR_TOAST_MS = 6000;

/**
 * Toasts that belong to one screen, such as a form's "Payment failed": each new one replaces the
 * last, `dismiss` clears them (a new submit), and they go when the screen does, so none lingers
 * into the next screen. A toast that must outlive its screen (the purchase's "Payment successful!",
 * shown over the confirmation) is a plain `toast`.
 */
export function useScreenToasts() {
  const shown = useRef<(string | number)[]>([]);
  const toasts = useMemo(() => {
    const dismiss = () => {
      for (const id of shown.current.splice(0)) toast.dismiss(id);
    };
    return {
      dismiss,
      success(title: string, options?: ExternalToast) {
        dismiss();
        shown.current.push(toast.success(title, options));
      },
      error(title: string, options?: ExternalToast) {
        dismiss();
        shown.current.push(toast.error(title, { duration: ERROR_TOAST_MS, ...options }));
      },
    };
  }, []);
  // Only toasts shown after mounting are dismissed, so StrictMode's mount-unmount-mount is harmless.
  useEffect(() => toasts.dismiss, [toasts]);
  return toasts;
}
