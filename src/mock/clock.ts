// The mock's "now" as ISO 8601 text, exactly as Date#toISOString writes it. Not toISOString itself:
// its first call in a process loads the local time zone (reading the tz database), which every
// `--mock` command would pay for a timestamp that is UTC anyway. The UTC fields need no zone.

export function isoNow(ms: number = Date.now()): string {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  // Years outside 0-9999 are written with a sign and six digits: rare enough to leave to Date.
  if (year < 0 || year > 9999) return d.toISOString();
  const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
  const ms3 = d.getUTCMilliseconds();
  return (
    `${String(year).padStart(4, '0')}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}` +
    `T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${String(ms3).padStart(3, '0')}Z`
  );
}
