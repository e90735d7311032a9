import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

const saved = { VAPID_SUBJECT: process.env.VAPID_SUBJECT, CREDENTIALS_KEY: process.env.CREDENTIALS_KEY };

function configWith(subject: string | undefined) {
  // A key in the environment: loadConfig then writes no key file.
  process.env.CREDENTIALS_KEY = '00'.repeat(32);
  if (subject === undefined) delete process.env.VAPID_SUBJECT;
  else process.env.VAPID_SUBJECT = subject;
  return loadConfig();
}

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('VAPID_SUBJECT (README, Configuration)', () => {
  it('takes a mailto: or https: contact, with a default that is neither localhost nor empty', () => {
    expect(configWith(undefined).vapidSubject).toBe('mailto:push@example.com');
    expect(configWith('mailto:ops@shop.example').vapidSubject).toBe('mailto:ops@shop.example');
    expect(configWith('https://shop.example/contact').vapidSubject).toBe('https://shop.example/contact');
  });

  it('refuses https://localhost, which Safari rejects, and anything that is not a mailto: or https: URL', () => {
    for (const subject of [
      'https://localhost',
      'https://localhost:8443/x',
      'http://shop.example',
      'ops@shop.example',
    ]) {
      expect(() => configWith(subject), subject).toThrow(/VAPID_SUBJECT/);
    }
  });
});
