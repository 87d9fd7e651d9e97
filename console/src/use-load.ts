import { useEffect, useState } from 'preact/hooks';

export interface Loaded<T> {
  value?: T;
  error?: string;
  loading: boolean;
}

/** Runs a load when its keys change; the answer of an older run never overwrites a newer one. */
export function useLoad<T>(load: () => Promise<T>, keys: unknown[]): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ loading: true });
  useEffect(() => {
    let current = true;
    setState({ loading: true });
    load().then(
      (value) => current && setState({ value, loading: false }),
      (error: unknown) => current && setState({ error: String((error as Error).message ?? error), loading: false }),
    );
    return () => {
      current = false;
    };
  }, keys);
  return state;
}
