import { chromium } from 'playwright-core';

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

/**
 * Every browser context opens a window of its own, and each window loads its address bar's suggestion list as a
 * page (chrome://omnibox-popup.top-chrome) in a renderer of its own: about 0.6 s of processor time per context,
 * plus the browser process's share, for a list no headless test ever shows.
 */
const unusedFeatures = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];
const disableFeatures = '--disable-features=';

/**
 * headlessChromiumArgs with unusedFeatures off. Chromium obeys only the last --disable-features it is given, and
 * playwright-core passes one of its own (features it needs off to drive the browser), so the switch carries that list
 * too, read from the command line of a browser launched once with playwright-core's defaults.
 */
export async function headlessChromiumArgsWithoutUnusedFeatures(executablePath: string): Promise<string[]> {
  const probe = await chromium.launch({
    executablePath,
    headless: true,
    // Chromium tells its command line only to a client that says it automates the browser.
    args: [...headlessChromiumArgs, '--enable-automation'],
  });
  try {
    const session = await probe.newBrowserCDPSession();
    const { arguments: commandLine } = await session.send('Browser.getBrowserCommandLine');
    const playwrightsFeatures = commandLine
      .filter((argument) => argument.startsWith(disableFeatures))
      .flatMap((argument) => argument.slice(disableFeatures.length).split(','));
    const features = [...new Set([...playwrightsFeatures, ...unusedFeatures])];
    return [...headlessChromiumArgs, `${disableFeatures}${features.join(',')}`];
  } finally {
    await probe.close();
  }
}
