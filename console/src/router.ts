import { useEffect, useState } from 'preact/hooks';

/** Hash routes (`#/kn/clinic`): the service serves one page at /console and never sees the path. */
const current = (): string[] =>
  location.hash
    .replace(/^#\/?/, '')
    .split('?')[0]
    .split('/')
    .filter((part) => part !== '')
    .map(decodeURIComponent);

export function useRoute(): string[] {
  const [path, setPath] = useState(current());
  useEffect(() => {
    const update = () => setPath(current());
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return path;
}

export const href = (...parts: string[]): string => `#/${parts.map(encodeURIComponent).join('/')}`;

export function route(...parts: string[]): void {
  location.hash = href(...parts);
}
