// `lms mock serve --tls-self-signed FILE`: a certificate made at start for this machine's own names
// (localhost, 127.0.0.1, ::1), so a CI job can test an HTTPS client against the mock by trusting the
// file. The private key never leaves the process. node-forge writes the certificate (Node can sign
// but not build one); the key pair is the runtime's. Loaded only with that flag.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { UsageError } from '../errors.js';

export interface TlsIdentity {
  cert: string;
  key: string;
}

/** Good for 30 days from an hour ago (a little clock skew between two machines in CI is no failure). */
export async function selfSignedCertificate(now = Date.now()): Promise<TlsIdentity> {
  const { default: forge } = await import('node-forge');
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  // A positive serial of 16 random bytes: two runs never issue the same one.
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(now - 3600_000);
  cert.validity.notAfter = new Date(now + 30 * 86400_000);
  const name = [
    { name: 'commonName', value: 'localhost' },
    { name: 'organizationName', value: 'lms mock serve' },
  ];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    // Its own authority: a client that trusts the file trusts the certificate, as a school's CA would be trusted.
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
        { type: 7, ip: '::1' },
      ],
    },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(privateKey), forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: privateKey };
}

export interface TlsFlags {
  tlsCert?: string;
  tlsKey?: string;
  tlsSelfSigned?: string;
}

/**
 * What `lms mock serve` serves HTTPS with, from its flags: a certificate and key read from files, or
 * a new self-signed certificate written where --tls-self-signed says; none for plain HTTP. Every
 * problem is a usage error naming its flag and file.
 */
export async function serveIdentity(flags: TlsFlags): Promise<TlsIdentity | undefined> {
  const { readFileSync, writeFileSync } = await import('node:fs');
  if (flags.tlsSelfSigned !== undefined) {
    if (flags.tlsCert !== undefined || flags.tlsKey !== undefined)
      throw new UsageError(
        '--tls-self-signed makes its own certificate: give it, or --tls-cert and --tls-key, not both',
      );
    const identity = await selfSignedCertificate();
    try {
      writeFileSync(flags.tlsSelfSigned, identity.cert);
    } catch (error) {
      throw new UsageError(
        `--tls-self-signed ${flags.tlsSelfSigned}: cannot write the certificate there ` +
          `(${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    return identity;
  }
  if (flags.tlsCert === undefined && flags.tlsKey === undefined) return undefined;
  if (flags.tlsCert === undefined || flags.tlsKey === undefined)
    throw new UsageError('--tls-cert and --tls-key go together: the certificate and its private key (PEM files)');
  const read = (flag: string, path: string, label: RegExp) => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new UsageError(`${flag} ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (!label.test(text))
      throw new UsageError(`${flag} ${path}: not a PEM file of the expected kind`, {
        hint: '--tls-cert takes -----BEGIN CERTIFICATE-----, --tls-key -----BEGIN … PRIVATE KEY-----',
      });
    return text;
  };
  const identity = {
    cert: read('--tls-cert', flags.tlsCert, /-----BEGIN CERTIFICATE-----/),
    key: read('--tls-key', flags.tlsKey, /-----BEGIN [A-Z ]*PRIVATE KEY-----/),
  };
  try {
    const { createSecureContext } = await import('node:tls');
    createSecureContext(identity);
  } catch (error) {
    throw new UsageError(`--tls-cert and --tls-key do not make a usable pair: ${(error as Error).message}`);
  }
  return identity;
}
