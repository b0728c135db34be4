// How a table shows a moment the instance sent. Instances send UTC (`2026-12-02T14:30:00Z`), which a
// person reading a due date or a submission time has to convert in their head; a table is read by a
// person, so it shows the moment in the local time zone (the process's, which `TZ` sets). Every
// other format is read by programs and keeps the instance's text as it came.

/** An ISO 8601 moment: a date, a time of day and a zone (`Z` or an offset). A date alone is no moment. */
const MOMENT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d(?::?\d\d)?)$/i;

const two = (n: number) => String(n).padStart(2, '0');

/**
 * `text` as the local date and time to the minute (`2026-12-02 09:30`), when it is a moment;
 * undefined for any other text, which is shown as it is.
 */
export function localTime(text: string): string | undefined {
  if (text.length > 40 || !MOMENT.test(text)) return undefined;
  // Date reads offsets written `+05:30` only: `+0530` and `+05` are given their colon.
  const normal = text.replace(/([+-]\d\d)(\d\d)$/, '$1:$2').replace(/([+-]\d\d)$/, '$1:00');
  const when = new Date(normal);
  if (Number.isNaN(when.getTime())) return undefined;
  return (
    `${when.getFullYear()}-${two(when.getMonth() + 1)}-${two(when.getDate())} ${two(when.getHours())}` +
    `:${two(when.getMinutes())}`
  );
}
