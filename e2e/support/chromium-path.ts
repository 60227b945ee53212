import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Debian's packages put them here; elsewhere we look for them on PATH. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
export const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** The Chromium browser (Debian's `chromium`, else `chromium` on PATH), or undefined when none is installed. */
export function findChromium(): string | undefined {
  return [DEBIAN_CHROMIUM, ...onPath('chromium')].find(isExecutable);
}

/**
 * What the browser tests drive: Chromium's headless shell when it is installed (Debian's
 * `chromium-headless-shell`), else the browser. The shell is Chromium built for headless use — the same
 * Blink, V8 and network stack, without the browser's windowing and display compositor — and what
 * Playwright itself runs headless tests in. The same journeys took it half the CPU of the browser
 * here (ADR 0039), and the browser tier shares two cores with the others.
 */
export function findTestChromium(): string | undefined {
  return findHeadlessShell() ?? findChromium();
}

export function findHeadlessShell(): string | undefined {
  return [DEBIAN_HEADLESS_SHELL, ...onPath('chromium-headless-shell')].find(isExecutable);
}

function onPath(name: string): string[] {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((d) => join(d, name));
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
