/**
 * Headless Debian Chromium as the browser tests and the console benchmark run it. The background-networking flags
 * matter here: without them Chromium keeps dialling Google's hosts, which this machine's closed network refuses.
 */
export const headlessChromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
