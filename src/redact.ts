/** Tokens never leave the process in a trace, a log or a message. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:access_token|token|verifier)=)[^&#]*/gi, '$1[REDACTED]');
}
