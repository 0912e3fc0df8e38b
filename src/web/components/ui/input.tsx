import { useEffect, useEffectEvent, useRef, type ChangeEvent, type ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

export function Input({ className, type = 'text', ref, ...props }: ComponentProps<'input'>) {
  const own = useRef<HTMLInputElement | null>(null);
  // A page the server rendered can be typed into before its script runs; React keeps the state it
  // rendered, so a controlled input takes what is already typed as its first change.
  const adoptTyped = useEffectEvent(() => {
    const input = own.current;
    if (!input || props.value === undefined || !props.onChange || input.value === String(props.value)) return;
    props.onChange({ target: input, currentTarget: input } as ChangeEvent<HTMLInputElement>);
  });
  useEffect(() => adoptTyped(), []);
  return (
    <input
      ref={(node) => {
        own.current = node;
        if (typeof ref === 'function') return ref(node);
        if (ref) ref.current = node;
      }}
      type={type}
      className={cn(
        'flex h-11 w-full min-w-0 rounded-lg border border-input bg-card px-3 text-base text-foreground shadow-xs transition-colors sm:text-sm',
        // Placeholders are text too: muted-foreground is 6.0:1 on the card (at 70% it was 3.1:1).
        'placeholder:text-muted-foreground',
        'focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/40',
        'disabled:cursor-not-allowed disabled:opacity-60',
        'aria-invalid:border-destructive aria-invalid:focus-visible:outline-destructive/30',
        className,
      )}
      {...props}
    />
  );
}
