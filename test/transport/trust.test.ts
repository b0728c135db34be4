// A CA file is checked for what it holds before any request: each PEM block must be a certificate
// on the outside, which Node's own parser agrees with on every case here, Node's bundled roots included.
import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { contextTrusting, isCertificateShaped, readCaFile } from '../../src/transport/trust.js';
import { selfSignedCertificate } from '../../src/mock/tls.js';

const pem = (base64: string) =>
  `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`;
const bodyOf = (block: string) => block.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
const parses = (block: string) => {
  try {
    new X509Certificate(block);
    return true;
  } catch {
    return false;
  }
};

const root = rootCertificates[0];
const rootLines = root.split('\n');
const der = Buffer.from(bodyOf(root), 'base64');
const privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
  type: 'pkcs8',
  format: 'der',
});

const cases: [string, string, boolean][] = [
  ['a root certificate Node ships', root, true],
  ['the same with Windows line ends', root.replace(/\n/g, '\r\n'), true],
  ['the same with its end marker indented, which OpenSSL does not read', root.replace(/\n/g, '\n  '), false],
  ['the same with a space after every line', root.replace(/\n/g, ' \n'), true],
  ['the same with a tab after every line', root.replace(/\n/g, '\t\n'), true],
  ['the same with its base64 lines indented', root.replace(/\n(?!-----END)/g, '\n  '), true],
  [
    'the same with a blank line among its base64 lines',
    [...rootLines.slice(0, 3), '', ...rootLines.slice(3)].join('\n'),
    false,
  ],
  ['the same with a blank line after its begin marker', [rootLines[0], '', ...rootLines.slice(1)].join('\n'), false],
  ['garbage that is not base64', pem('MIIB!!!notbase64!!!'), false],
  ['base64 of no certificate', pem(Buffer.from('hello, this is not a certificate').toString('base64')), false],
  ['a private key put in a CERTIFICATE block', pem(privateKey.toString('base64')), false],
  ['a certificate cut short', pem(der.subarray(0, der.length - 30).toString('base64')), false],
  ['two certificates run together in one block', pem(Buffer.concat([der, der]).toString('base64')), false],
  ['an empty block', '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----', false],
  [
    'a SEQUENCE whose first element is no SEQUENCE',
    pem(Buffer.from([0x30, 0x03, 0x02, 0x01, 0x01]).toString('base64')),
    false,
  ],
];

describe('isCertificateShaped', () => {
  it.each(cases)('%s: %s', (_name, block, shaped) => {
    expect(isCertificateShaped(block)).toBe(shaped);
    // Node's parser, the reference, says the same.
    expect(parses(block)).toBe(shaped);
  });

  it('holds every root certificate Node ships to be one', () => {
    expect(rootCertificates.length).toBeGreaterThan(100);
    expect(rootCertificates.filter((c) => !isCertificateShaped(c))).toEqual([]);
  });
});

describe('readCaFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lms-trust-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('gives every certificate of a bundle', () => {
    const path = file('bundle.pem', `${rootCertificates[0]}\n${rootCertificates[1]}\n`);
    expect(readCaFile({ path, source: 'LMS_CA_FILE' })).toHaveLength(2);
  });

  it('refuses a file one of whose certificates does not parse, naming the file and where it came from', () => {
    const path = file('one-bad.pem', `${root}\n${pem('MIIBbadbadbad')}\n`);
    expect(() => readCaFile({ path, source: 'profile "prod"' })).toThrow(UsageError);
    expect(() => readCaFile({ path, source: 'profile "prod"' })).toThrow(
      `the CA file ${path} (from profile "prod") holds a certificate that does not parse`,
    );
  });
});

describe('contextTrusting', () => {
  it("builds no context for certificates Node's store holds already: a system bundle adds nothing", () => {
    expect(contextTrusting([])).toBeUndefined();
    expect(contextTrusting(rootCertificates.slice(0, 3).map((pem) => pem.replace(/\n/g, '\r\n')))).toBeUndefined();
  });

  it('builds one for a certificate Node lacks', async () => {
    const { cert } = await selfSignedCertificate();
    expect(contextTrusting([rootCertificates[0], cert])).toBeDefined();
  });
});
