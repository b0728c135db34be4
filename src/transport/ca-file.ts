// Which file of certificate authorities a command trusts, and what messages call it: read by the
// transport (./http.ts), the trust it builds (./trust.ts) and lms doctor, without loading TLS.

type Env = Readonly<Record<string, string | undefined>>;

export interface CaFile {
  path: string;
  /** Where the path came from, for messages: `LMS_CA_FILE`, `--ca-file`, `profile "prod"`, `SSL_CERT_FILE`. */
  source: string;
  /** Named by curl's variables (CURL_CA_BUNDLE, SSL_CERT_FILE): a bundle of a machine's roots, not one authority. */
  bundle?: boolean;
}

/** curl's variables naming a bundle of certificate authorities, in the order curl reads them. */
export const CURL_CA_VARIABLES = ['CURL_CA_BUNDLE', 'SSL_CERT_FILE'] as const;

/**
 * The file of certificate authorities a command trusts besides Node's roots: LMS_CA_FILE, else the
 * profile's (or the flag's), both named for lms; else curl's CURL_CA_BUNDLE, else SSL_CERT_FILE, as
 * curl reads them. One file, the first set (an empty variable is unset): the others are not read.
 */
export function caFileOf(env: Env, given: CaFile | undefined): CaFile | undefined {
  if (env.LMS_CA_FILE) return { path: env.LMS_CA_FILE, source: 'LMS_CA_FILE' };
  if (given) return given;
  const variable = CURL_CA_VARIABLES.find((name) => env[name]);
  return variable ? { path: env[variable]!, source: variable, bundle: true } : undefined;
}

/** What a file of certificate authorities is called in messages: a bundle, for curl's variables. */
export const caFileLabel = ({ path, source, bundle }: CaFile) =>
  `the ${bundle ? 'CA bundle' : 'CA file'} ${path} (from ${source})`;
