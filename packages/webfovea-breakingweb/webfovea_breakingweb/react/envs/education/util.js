// Small helpers the education views share: dates as a student reads them, course labels.
export function when(iso) {
  return iso.length > 10 ? iso.slice(0, 16).replace('T', ' ') : iso;
}

export function courseLabel(c) {
  return c.code + ' ' + c.name;
}
