// How the portal writes a time, a day and an amount; apps/healthcare/common.py writes the same,
// so an instruction quotes exactly what the page shows. No Date parsing of local time: the
// sites' clock is UTC and the strings are cut from the ISO text.
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function parts(iso) {
  return {y: Number(iso.slice(0, 4)), m: Number(iso.slice(5, 7)), d: Number(iso.slice(8, 10))};
}

// '2024-12-03' -> 'Dec 3, 2024'; a date the server wrote another way (server/scrambled_timestamps:
// '27 Jan 2025') is shown as it came.
export function day(iso) {
  if (!/^\d{4}-\d{2}-\d{2}/.test(iso)) return iso;
  const {y, m, d} = parts(iso);
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

// The day of the week by Sakamoto's rule (0 = Sunday): arithmetic, no clock object.
function weekday(y, m, d) {
  const t = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
  const yy = m < 3 ? y - 1 : y;
  return (yy + Math.floor(yy / 4) - Math.floor(yy / 100) + Math.floor(yy / 400) + t[m - 1] + d) % 7;
}

// '2025-01-07T13:30:00Z' -> 'Tue, Jan 7, 2025'
export function longDay(iso) {
  const {y, m, d} = parts(iso);
  return `${DAYS[weekday(y, m, d)]}, ${day(iso)}`;
}

// '2025-01-07T13:30:00Z' -> '1:30 PM'
export function clock(iso) {
  const hh = Number(iso.slice(11, 13));
  return `${hh % 12 || 12}:${iso.slice(14, 16)} ${hh < 12 ? 'AM' : 'PM'}`;
}

// '2025-01-07T13:30:00Z' -> 'Tue, Jan 7, 2025 at 1:30 PM'
export function when(iso) {
  return `${longDay(iso)} at ${clock(iso)}`;
}

export function money(cents) {
  return '$' + (cents / 100).toLocaleString('en-US', {minimumFractionDigits: 2, maximumFractionDigits: 2});
}

// '25', '25.5', '$1,025.50' -> cents; null for anything else.
export function cents(text) {
  const t = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  const [whole, frac = ''] = t.split('.');
  return Number(whole) * 100 + Number((frac + '00').slice(0, 2));
}

export function providerLabel(p) {
  return `${p.name} — ${p.specialty}`;
}
