/** The one message a form shows when its input is refused; announced to screen readers. */
export function FormError({ id, message }: { id: string; message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p
      id={id}
      role="alert"
      className="rounded-lg border border-destructive/30 bg-destructive-soft px-3.5 py-3 text-sm font-medium text-destructive"
    >
      {message}
    </p>
  );
}
