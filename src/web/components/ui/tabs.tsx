import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';

export interface TabItem<K extends string> {
  key: K;
  label: ReactNode;
  panel: ReactNode;
}

export interface TabsProps<K extends string> {
  label: string;
  tabs: ReadonlyArray<TabItem<K>>;
  value: K;
  onValueChange: (key: K) => void;
  className?: string;
}

/** Space kept between the selected tab and the list's edge when it is scrolled into view, clear of the fade. */
const EDGE_ROOM = 32;

/**
 * Which ends of a sideways-scrolling tab list hide tabs, and the selected tab kept in view: on a
 * phone the list scrolls, and a fade with a chevron shows on each side that has more tabs.
 */
function useScrollEdges(list: HTMLDivElement | null, selectedKey: string | undefined) {
  const [edges, setEdges] = useState({ start: false, end: false });
  useEffect(() => {
    if (!list) return;
    const update = () => {
      const start = list.scrollLeft > 1;
      const end = list.scrollLeft + list.clientWidth < list.scrollWidth - 1;
      setEdges((old) => (old.start === start && old.end === end ? old : { start, end }));
    };
    update();
    list.addEventListener('scroll', update, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    resize?.observe(list);
    return () => {
      list.removeEventListener('scroll', update);
      resize?.disconnect();
    };
  }, [list]);
  useEffect(() => {
    const selected = list?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
    if (!list || !selected || list.scrollWidth <= list.clientWidth) return;
    // Scroll the list only (scrollIntoView would move the page too).
    const left = selected.offsetLeft;
    const right = left + selected.offsetWidth;
    if (left - EDGE_ROOM < list.scrollLeft) list.scrollTo({ left: Math.max(0, left - EDGE_ROOM) });
    else if (right + EDGE_ROOM > list.scrollLeft + list.clientWidth) list.scrollTo({ left: right + EDGE_ROOM - list.clientWidth });
  }, [list, selectedKey]);
  return edges;
}

const fade = 'pointer-events-none absolute inset-y-px flex w-10 items-center text-muted-foreground transition-opacity duration-200 [&_svg]:size-4';

/**
 * WAI-ARIA tabs: a tablist of buttons (arrow keys, Home and End move between them) and the
 * selected tab's panel. Only the selected panel is rendered.
 */
export function Tabs<K extends string>({ label, tabs, value, onValueChange, className }: TabsProps<K>) {
  const id = useId();
  const buttons = useRef(new Map<K, HTMLButtonElement>());
  const selected = tabs.find((tab) => tab.key === value) ?? tabs[0];
  const [list, setList] = useState<HTMLDivElement | null>(null);
  const edges = useScrollEdges(list, selected?.key);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.key === value);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = tabs[(target + tabs.length) % tabs.length];
    if (!next) return;
    onValueChange(next.key);
    buttons.current.get(next.key)?.focus();
  };

  return (
    <div className={className}>
      <div className="relative inline-flex max-w-full">
        <div
          ref={setList}
          role="tablist"
          aria-label={label}
          onKeyDown={onKeyDown}
          className="relative inline-flex max-w-full gap-1 overflow-x-auto rounded-xl border bg-muted/70 p-1 [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
        >
          {tabs.map((tab) => {
            const active = tab.key === selected?.key;
            return (
              <button
                key={tab.key}
                ref={(node) => {
                  if (node) buttons.current.set(tab.key, node);
                  else buttons.current.delete(tab.key);
                }}
                type="button"
                role="tab"
                id={`${id}-tab-${tab.key}`}
                aria-selected={active}
                aria-controls={`${id}-panel-${tab.key}`}
                tabIndex={active ? 0 : -1}
                onClick={() => onValueChange(tab.key)}
                className={cn(
                  'inline-flex h-9 shrink-0 cursor-pointer items-center gap-2 rounded-lg px-3.5 text-sm font-semibold whitespace-nowrap transition-colors [&_svg]:size-4',
                  active ? 'bg-card text-foreground shadow-sm' : 'text-muted-foreground hover:text-foreground',
                )}
              >
                {tab.label}
              </button>
            );
          })}
        </div>
        <div
          aria-hidden="true"
          data-edge="start"
          className={cn(fade, 'left-px justify-start rounded-l-xl bg-linear-to-r from-muted via-muted/90 to-transparent pl-1', edges.start ? 'opacity-100' : 'opacity-0')}
        >
          <ChevronLeft />
        </div>
        <div
          aria-hidden="true"
          data-edge="end"
          className={cn(fade, 'right-px justify-end rounded-r-xl bg-linear-to-l from-muted via-muted/90 to-transparent pr-1', edges.end ? 'opacity-100' : 'opacity-0')}
        >
          <ChevronRight />
        </div>
      </div>
      {selected && (
        <div
          role="tabpanel"
          id={`${id}-panel-${selected.key}`}
          aria-labelledby={`${id}-tab-${selected.key}`}
          className="mt-4 outline-none"
        >
          {selected.panel}
        </div>
      )}
    </div>
  );
}
