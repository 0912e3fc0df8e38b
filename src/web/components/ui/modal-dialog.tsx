import { useEffect, useRef, type ReactNode } from 'react';

export interface ModalDialogProps {
  /** The id of the dialog's title, its accessible name. */
  labelledBy: string;
  /** The id of the text that says what the dialog is about. */
  describedBy: string;
  /** While true, Escape does nothing: the action under way finishes first. */
  busy: boolean;
  onCancel: () => void;
  children: ReactNode;
}

/**
 * A modal <dialog>, open while mounted: focus stays inside, Escape cancels (unless busy), and the
 * browser gives focus back to the control that opened it when it closes.
 */
export function ModalDialog({ labelledBy, describedBy, busy, onCancel, children }: ModalDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const node = dialog.current;
    if (node && !node.open) node.showModal();
    return () => node?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-(--radius-card) border bg-card p-0 text-foreground shadow-xl backdrop:bg-black/40"
    >
      {children}
    </dialog>
  );
}
