import { useEffect, useRef } from 'react';

/**
 * Each new screen of a flow (a step, a confirmation) starts at the top with focus on its heading.
 * `screen` changes identity when the screen changes; returns the ref for the screens' container.
 */
export function useScreenFocus(screen: unknown) {
  const container = useRef<HTMLDivElement>(null);
  const shown = useRef(screen);
  useEffect(() => {
    if (shown.current === screen) return;
    shown.current = screen;
    window.scrollTo({ top: 0 });
    container.current?.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true });
  }, [screen]);
  return container;
}
