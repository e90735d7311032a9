import { execFileSync } from 'node:child_process';

export interface Certificate {
  key: string;
  cert: string;
}

/** A throwaway self-signed certificate for the sandbox's TLS, made at start-up (clients skip verification on loopback). */
export function makeSelfSignedCertificate(): Certificate {
  const pem = execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '30',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,DNS:fcm.googleapis.com,DNS:api.sandbox.push.apple.com,IP:127.0.0.1',
      '-keyout',
      '-',
      '-out',
      '-',
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const key = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n/.exec(pem)?.[0];
  const cert = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n/.exec(pem)?.[0];
  if (key === undefined || cert === undefined) throw new Error('openssl did not print a key and a certificate');
  return { key, cert };
}

let shared: Certificate | undefined;

/**
 * One certificate for every sandbox a process starts: making one runs openssl and blocks the event loop, and a test
 * process starts a sandbox for each of many test files.
 */
export function sandboxCertificate(): Certificate {
  shared ??= makeSelfSignedCertificate();
  return shared;
}
