// Real Chromium (Debian's headless shell, else its browser: chromium-path.ts) driven by playwright-core:
//
//   const browser = await launchBrowser();
//   const page = await browser.newPage();
//   ...
//   await browser.close();

import { type Browser, chromium } from 'playwright-core';
import { findTestChromium } from './chromium-path.ts';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/** Launches headless Chromium; fails with a clear message when it is not installed. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = findTestChromium();
  if (!executablePath) {
    throw new Error(
      'Browser tests need Chromium: run `sudo apt-get install -y chromium-headless-shell` (Debian) or install `chromium`.',
    );
  }
  return chromium.launch({ executablePath, args: ARGS });
}
