// Hash routing (#/c/gardening, #/p/P-0004): the view follows location.hash.
import {useEffect, useState} from 'react';

// A deep link `?view=/p/P-0004` opens that view on a fresh load and becomes `#/p/P-0004`. The
// verify gate re-reads through such a link: a URL that differs from the current one only by its
// hash would not load the page again, and the re-read must come from the server, not from memory.
const deep = new URLSearchParams(window.location.search).get('view');
if (deep && !window.location.hash) window.history.replaceState(null, '', window.location.pathname + '#' + deep);

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
