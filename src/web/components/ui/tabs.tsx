import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
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

/**
 * WAI-ARIA tabs: a tablist of buttons (arrow keys, Home and End move between them) and the
 * selected tab's panel. Only the selected panel is rendered.
 */
export function Tabs<K extends string>({ label, tabs, value, onValueChange, className }: TabsProps<K>) {
  const id = useId();
  const buttons = useRef(new Map<K, HTMLButtonElement>());
  const selected = tabs.find((tab) => tab.key === value) ?? tabs[0];

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
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="inline-flex max-w-full gap-1 overflow-x-auto rounded-xl border bg-muted/70 p-1"
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
                'inline-flex h-9 cursor-pointer items-center gap-2 rounded-lg px-3.5 text-sm font-semibold whitespace-nowrap transition-colors [&_svg]:size-4',
                active ? 'bg-card text-foreground shadow-sm' : 'text-muted-foreground hover:text-foreground',
              )}
            >
              {tab.label}
            </button>
          );
        })}
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
