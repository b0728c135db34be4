// A school's own certificate authority, from LMS_CA_FILE or a profile's --ca-file: added to the
// roots Node trusts (its bundled ones, NODE_EXTRA_CA_CERTS, and --use-system-ca's where the line has
// it), never in their place, so the same command still reaches hosts with public certificates (an
// upload's storage host). Loaded only when such a file is named.
//
// Two contexts express that trust: one of the file's certificates alone, cheap to build, which the
// transport tries first; and Node's roots with the file's, which costs a copy of Node's root store
// and a second parse of NODE_EXTRA_CA_CERTS, built only when the first refuses a certificate chain
// (see ./http.ts).
import type { SecureContext } from 'node:tls';
import { UsageError } from '../errors.js';
import { readBoundedFileSync } from '../io/bounded.js';

const MAX_CA_FILE_BYTES = 4 * 1024 * 1024;

export interface CaFile {
  path: string;
  /** Where the path came from, for messages: `LMS_CA_FILE`, `--ca-file`, `profile "prod"`. */
  source: string;
}

const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM file; an unreadable file, or one with no certificate Node can parse, is a usage error naming it. */
export function readCaFile({ path, source }: CaFile): string[] {
  const hint = 'give the PEM file of the certificate authority (the text between -----BEGIN CERTIFICATE----- and -----END CERTIFICATE-----)';
  let text: string;
  try {
    // Bounded: a bundle of every public root is about 200 KiB, and /dev/zero must not fill memory.
    text = readBoundedFileSync(path, { limit: MAX_CA_FILE_BYTES, what: source, label: `the CA file ${path} (from ${source})` }).toString('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(`cannot read the CA file ${path} (from ${source}): ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : code}`, { hint });
  }
  const blocks = text.match(PEM_BLOCK) ?? [];
  if (!blocks.length) throw new UsageError(`the CA file ${path} (from ${source}) holds no PEM certificate`, { hint });
  for (const block of blocks) {
    if (!isCertificateShaped(block)) throw new UsageError(`the CA file ${path} (from ${source}) holds a certificate that does not parse`, { hint });
  }
  return blocks;
}

/**
 * Whether a PEM block holds what a certificate is on the outside: base64 of one DER SEQUENCE, of the
 * length it declares, whose first element is a SEQUENCE (the signed part). A TLS context skips a
 * block it cannot read rather than refuse it, so the file is checked here, as curl refuses such a
 * file; not with Node's X509Certificate, whose first use starts OpenSSL's certificate machinery in
 * the command's path (2-3 ms of every HTTPS command with a CA file), for a check of the file's shape.
 */
export function isCertificateShaped(block: string): boolean {
  const begin = block.indexOf(BEGIN);
  const end = block.lastIndexOf(END);
  if (begin < 0 || end < begin) return false;
  // Lines as OpenSSL's decoder reads them: spaces and tabs around each line skipped, no blank line
  // among the base64 ones, and the end marker at the start of its line.
  const lines = block.slice(begin + BEGIN.length, end).replaceAll('\r', '').split('\n');
  if (lines.length < 3 || lines.at(-1) !== '' || lines[0].trim() !== '') return false;
  const base64 = lines.slice(1, -1).map((line) => line.trim());
  if (base64.includes('')) return false;
  const body = base64.join('');
  if (body.length === 0 || body.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return false;
  const der = Buffer.from(body, 'base64');
  const certificate = sequenceAt(der, 0);
  if (!certificate || certificate.end !== der.length) return false;
  const signed = sequenceAt(der, certificate.start);
  return signed !== undefined && signed.end <= certificate.end;
}

/** The content of the DER SEQUENCE at `at` (its start and end), if one is there whole. */
function sequenceAt(der: Buffer, at: number): { start: number; end: number } | undefined {
  if (der[at] !== 0x30 || at + 2 > der.length) return undefined;
  const first = der[at + 1];
  let start = at + 2;
  let length = first;
  if (first >= 0x80) {
    const octets = first & 0x7f;
    if (octets === 0 || octets > 4 || start + octets > der.length) return undefined;
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + der[start + i];
    start += octets;
  }
  return start + length <= der.length ? { start, end: start + length } : undefined;
}

/**
 * A TLS context trusting these certificates and nothing else. Not NODE_EXTRA_CA_CERTS's either:
 * the second context has them, and where that variable names a whole system bundle, parsing it
 * again here would cost more than the rest of the context (measured: a fifth of a command's CPU).
 */
export function contextOf(certs: string[]): SecureContext {
  return process.getBuiltinModule('node:tls').createSecureContext({ ca: certs });
}

/**
 * A TLS context trusting what Node trusts by default (its bundle, NODE_EXTRA_CA_CERTS, and on lines
 * that have it --use-system-ca) and these certificates besides. Node's `ca` option would replace
 * the defaults, and listing them again costs parsing some 140 roots (measured: twice the CPU of a
 * whole one-request command); the context instead copies the already-parsed root store and adds
 * to it.
 */
export function contextTrusting(extra: string[]): SecureContext {
  const tls = process.getBuiltinModule('node:tls');
  const context = tls.createSecureContext();
  const native = (context as { context?: { addCACert?: (pem: string) => void } }).context;
  if (typeof native?.addCACert !== 'function') return tls.createSecureContext({ ca: [...tls.rootCertificates, ...extraFromEnv(), ...extra] });
  // The copy is of Node's bundled roots: NODE_EXTRA_CA_CERTS went into the shared store alone.
  for (const pem of [...extraFromEnv(), ...extra]) native.addCACert(pem);
  return context;
}

/** NODE_EXTRA_CA_CERTS, read as Node reads it (a file it could not read was warned about at start). */
function extraFromEnv(): string[] {
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return process.getBuiltinModule('node:fs').readFileSync(file, 'utf8').match(PEM_BLOCK) ?? [];
  } catch {
    return [];
  }
}
