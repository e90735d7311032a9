import { findOnPath, isExecutableFile } from './find-executable.ts';
import { aptInstall } from './apt-install.ts';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome'];

/**
 * The browser the browser tests drive: CHROMIUM_PATH, else one on PATH, else Debian's chromium installed with apt-get.
 * No test tool may download a browser build of its own here, so this is the only source.
 */
export async function findOrInstallChromium(log: (line: string) => void): Promise<string> {
  const configured = process.env.CHROMIUM_PATH;
  if (configured !== undefined && configured !== '') {
    if (isExecutableFile(configured)) return configured;
    throw new Error(`CHROMIUM_PATH is ${configured}, which is not an executable file.`);
  }
  const found = findInstalled();
  if (found !== undefined) return found;
  if (await aptInstall(['chromium'], (line) => log(`chromium: not found on PATH; ${line}`))) {
    const installed = findInstalled();
    if (installed !== undefined) return installed;
  }
  throw new Error(
    'The browser tests need Chromium and none was found on PATH. Install it (Debian/Ubuntu: `apt-get install -y chromium`), ' +
      'or set CHROMIUM_PATH to a Chromium or Chrome executable.',
  );
}

function findInstalled(): string | undefined {
  for (const name of NAMES) {
    const found = findOnPath(name);
    if (found !== undefined) return found;
  }
  return undefined;
}
