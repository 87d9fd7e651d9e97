import type { ComponentChildren } from 'preact';
import { t } from '../i18n';
import type { Loaded } from '../use-load';

/** A loading line, the error in the service's words, or the content. */
export function Show<T>({ state, children }: { state: Loaded<T>; children: (value: T) => ComponentChildren }) {
  if (state.loading) return <p class="muted">{t('loading')}</p>;
  if (state.error !== undefined) return <p class="error">{state.error}</p>;
  return <>{children(state.value as T)}</>;
}

export const Json = ({ value }: { value: unknown }) => <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
