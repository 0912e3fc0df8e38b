/**
 * Code the buyer's first load leaves out, fetched when first wanted: `load()` starts the import once
 * and shares it; a failed load (a dropped connection) is tried again on the next call.
 * `prefetch` is for hints of intent (pointer over, focus): it starts the load and ignores failure.
 */
export function lazyModule<T>(importer: () => Promise<T>): { load: () => Promise<T>; prefetch: () => void } {
  let loading: Promise<T> | undefined;
  const load = () => {
    loading ??= importer().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return { load, prefetch: () => void load().catch(() => undefined) };
}
