// Debian's Chromium driven by playwright-core, headless, never downloading a browser.
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.KILN_CHROMIUM ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
