import { LoaderCircle, Search, X } from 'lucide-react';
import { useId } from 'react';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';

export interface SearchBoxProps {
  /** The field's accessible name (visually hidden: the placeholder and icon say it). */
  label: string;
  placeholder: string;
  maxLength: number;
  value: string;
  onChange: (value: string) => void;
  /** True while a typed search waits for its debounce or its answer: a spinner in place of Clear. */
  searching?: boolean;
}

/** An admin list's search field: a magnifier, the text, and a spinner or a Clear button. */
export function SearchBox({ label, placeholder, maxLength, value, onChange, searching = false }: SearchBoxProps) {
  const id = useId();
  return (
    <div className="relative w-full sm:max-w-xs" role="search">
      <Label htmlFor={id} className="sr-only">
        {label}
      </Label>
      <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <Input
        id={id}
        type="search"
        enterKeyHint="search"
        autoComplete="off"
        spellCheck={false}
        maxLength={maxLength}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden"
      />
      {searching ? (
        <LoaderCircle className="absolute top-1/2 right-3 size-4 -translate-y-1/2 animate-spin text-muted-foreground" aria-hidden="true" />
      ) : (
        value && (
          <button
            type="button"
            onClick={() => onChange('')}
            aria-label="Clear search"
            className="absolute top-1/2 right-1.5 flex size-8 -translate-y-1/2 cursor-pointer items-center justify-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        )
      )}
    </div>
  );
}
