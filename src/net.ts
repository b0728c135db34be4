/** This machine: where a token may travel over plain http without anyone else seeing it. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\./.test(hostname);
}

/** Node's codes for a certificate it refused (OpenSSL's verify errors, and its own for a name mismatch). */
export const CERTIFICATE_ERROR =
  /^(CERT_|ERR_TLS_CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_(GET_ISSUER_CERT|VERIFY_LEAF_SIGNATURE|DECRYPT_CERT_SIGNATURE|GET_CRL))/;
