// Hash routing (#/c/gardening, #/p/P-0004): the view follows location.hash, so a deep link such
// as /env/social#/saved opens that view on a fresh load (the verify gate's re-read lands there).
import {useEffect, useState} from 'react';

export function useHash() {
  const [hash, setHash] = useState(() => window.location.hash || '#/');
  useEffect(() => {
    const on = () => setHash(window.location.hash || '#/');
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return hash;
}

// ['p', 'P-0004'] from '#/p/P-0004'; the query part (after ?) as an object.
export function parseHash(hash) {
  const [path, query] = hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const params = Object.fromEntries(new URLSearchParams(query || ''));
  return {parts, params};
}

export function go(hash) {
  window.location.hash = hash;
}
