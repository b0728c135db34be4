// Time zones as real instances take them: an IANA name, or one of the framework's friendly names.

const FRIENDLY_ZONES: Record<string, string> = {
  'Pacific Time (US & Canada)': 'America/Los_Angeles',
  'Mountain Time (US & Canada)': 'America/Denver',
  'Central Time (US & Canada)': 'America/Chicago',
  'Eastern Time (US & Canada)': 'America/New_York',
  UTC: 'Etc/UTC',
  London: 'Europe/London',
  Berlin: 'Europe/Berlin',
  Tokyo: 'Asia/Tokyo',
};

/** The IANA name of a zone given either way; undefined when it is neither. */
export function ianaZone(value: string): string | undefined {
  if (FRIENDLY_ZONES[value]) return FRIENDLY_ZONES[value];
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return value;
  } catch {
    return undefined;
  }
}
