// Certificate authorities to trust besides Node's own roots (its bundled ones, NODE_EXTRA_CA_CERTS,
// and --use-system-ca's where the line has it), from the first of these that is set (see
// caFileOf in ./http.ts):
//  - LMS_CA_FILE, then a profile's --ca-file (or the flag's, adding one): a school's own CA. Added
//    to the roots, never in their place, so the same command still reaches hosts with public
//    certificates (an upload's storage host).
//  - curl's CURL_CA_BUNDLE, then SSL_CERT_FILE (OpenSSL's), in curl's order: a bundle set for curl,
//    the system's (Debian's, Nix's) or one with a school's CA appended. curl trusts such a bundle in
//    place of its built-in roots; lms adds it to Node's, as the explicit file is added. What a
//    school sets for curl is the authority its instance needs, but the instance's uploads go to
//    storage hosts with public certificates, which a bundle of the school's CA alone would refuse
//    in place of Node's roots. And a bundle is most often all of a machine's roots: a context of
//    its own parses every one of them (measured on a system bundle: twice the CPU of Node's own
//    store), where adding parses only the certificates Node lacks, and none at all where
//    NODE_EXTRA_CA_CERTS names the same bundle. So a bundle widens what is trusted, never narrows
//    it, as every other CA setting of lms does; a user who narrows curl's trust with it does not
//    narrow lms's.
// NODE_EXTRA_CA_CERTS is Node's own, read at start and added to whatever is trusted, as Node does.
// Loaded only when one of these is named, and read on the first https request.
//
// The explicit file's trust is expressed by two contexts: one of its certificates alone, cheap to
// build, which the transport tries first; and Node's roots with the file's, which costs a copy of
// Node's root store, built only when the first refuses a certificate chain (see ./http.ts). A
// bundle has the second alone: a context of its certificates alone is what costs the most.
import * as tls from 'node:tls';
import type { SecureContext } from 'node:tls';
import { UsageError } from '../errors.js';
import { readBoundedFileSync } from '../io/bounded.js';
import { caFileLabel, type CaFile } from './ca-file.js';

const MAX_CA_FILE_BYTES = 4 * 1024 * 1024;

const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The certificates of a PEM file; an unreadable file, or one with no certificate Node can parse, is a usage error
 * naming it.
 */
export function readCaFile(file: CaFile): string[] {
  const { path, source, bundle } = file;
  const label = caFileLabel(file);
  // A variable set for curl may be one lms should not read at all: say how to leave it out.
  const hint = bundle
    ? `point ${source} at a PEM bundle of certificate authorities (as curl reads it), or unset it for lms (env -u ` +
      `${source} lms …)`
    : 'give the PEM file of the certificate authority (the text between -----BEGIN CERTIFICATE----- and -----END ' +
      'CERTIFICATE-----)';
  let text: string;
  try {
    // Bounded: a bundle of every public root is about 200 KiB, and /dev/zero must not fill memory.
    text = readBoundedFileSync(path, { limit: MAX_CA_FILE_BYTES, what: source, label }).toString('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(error.message, { hint: error.hint ?? hint });
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError(
      `cannot read ${label}: ` +
        `${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : code}`,
      { hint },
    );
  }
  const blocks = text.match(PEM_BLOCK) ?? [];
  if (!blocks.length) throw new UsageError(`${label} holds no PEM certificate`, { hint });
  for (const block of blocks) {
    if (!isCertificateShaped(block)) throw new UsageError(`${label} holds a certificate that does not parse`, { hint });
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
  const lines = block
    .slice(begin + BEGIN.length, end)
    .replaceAll('\r', '')
    .split('\n');
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
  return tls.createSecureContext({ ca: certs });
}

/**
 * A TLS context trusting what Node trusts by default (its bundle, NODE_EXTRA_CA_CERTS, and on lines
 * that have it --use-system-ca) and these certificates besides. Node's `ca` option would replace
 * the defaults, and listing them again costs parsing some 140 roots (measured: twice the CPU of a
 * whole one-request command); the context instead copies the already-parsed root store and adds
 * to it. Undefined when there is nothing to add: Node's default context trusts it all already.
 */
export function contextTrusting(extra: string[]): SecureContext | undefined {
  // The copy is of Node's bundled roots (or, with --use-openssl-ca or --use-system-ca, of the store
  // those name): NODE_EXTRA_CA_CERTS went into the shared store alone, and goes in again, but not
  // its certificates the copy holds (a system bundle holds most of the bundled roots).
  const bundled = new Set(holdsBundledRoots() ? tls.rootCertificates.map(keyOf) : []);
  const fromEnv = extraFromEnv();
  const adding = new Map<string, string>();
  for (const pem of [...fromEnv, ...extra]) if (!bundled.has(keyOf(pem))) adding.set(keyOf(pem), pem);
  // Every added certificate is in the default store already: a context of its own would change nothing.
  const inDefault = new Set(fromEnv.map(keyOf));
  if ([...adding.keys()].every((key) => inDefault.has(key))) return undefined;
  const context = tls.createSecureContext();
  const native = (context as { context?: { addCACert?: (pem: string) => void } }).context;
  if (typeof native?.addCACert !== 'function')
    return tls.createSecureContext({ ca: [...tls.rootCertificates, ...adding.values()] });
  for (const pem of adding.values()) native.addCACert(pem);
  return context;
}

/** Whether Node's store is its bundled roots: not where a flag, on the line or in NODE_OPTIONS, names another. */
function holdsBundledRoots(): boolean {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return !flags.some((flag) => flag === '--use-openssl-ca' || flag === '--use-system-ca');
}

/**
 * A certificate's base64, whatever its lines and their ends: the same certificate, written by another tool, is the same
 * key.
 */
function keyOf(pem: string): string {
  return pem
    .slice(pem.indexOf(BEGIN) + BEGIN.length, pem.lastIndexOf(END))
    .replaceAll('\n', '')
    .replaceAll('\r', '')
    .replaceAll(' ', '')
    .replaceAll('\t', '');
}

/**
 * NODE_EXTRA_CA_CERTS, read as Node reads it (a file it could not read was warned about at start); bounded as a CA file
 * is.
 */
function extraFromEnv(): string[] {
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return (
      readBoundedFileSync(file, { limit: MAX_CA_FILE_BYTES, what: 'NODE_EXTRA_CA_CERTS' })
        .toString('utf8')
        .match(PEM_BLOCK) ?? []
    );
  } catch {
    return [];
  }
}
