// How the brokerage writes money and changes: cents in, "$1,234.56" out (no locale, no clock:
// same data, same DOM).
export function usd(cents) {
  const neg = cents < 0;
  const v = Math.abs(Math.round(cents));
  const whole = String(Math.floor(v / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return (neg ? '-' : '') + '$' + whole + '.' + String(v % 100).padStart(2, '0');
}

export function signed(cents) {
  return (cents >= 0 ? '+' : '') + usd(cents);
}

export function pct(part, whole) {
  if (!whole) return '0.00%';
  const p = (part / whole) * 100;
  return (p >= 0 ? '+' : '') + p.toFixed(2) + '%';
}

// "41.2" / "$1,041.20" -> 104120; null when it is not a positive amount with at most two decimals.
export function toCents(text) {
  const t = String(text).replace(/[$,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  const [w, f = ''] = t.split('.');
  const c = Number(w) * 100 + Number((f + '00').slice(0, 2));
  return c > 0 ? c : null;
}

export function when(iso) {
  return iso ? iso.slice(0, 16).replace('T', ' ') : '';
}

export function Change({cents, base}) {
  return <span className={cents >= 0 ? 'up' : 'down'}>{signed(cents)} ({pct(cents, base)})</span>;
}
