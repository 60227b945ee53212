import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Debian's package puts it here; elsewhere we look for `chromium` on PATH. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** The Chromium executable the browser tests drive, or undefined when none is installed. */
export function findChromium(): string | undefined {
  const candidates = [
    DEBIAN_CHROMIUM,
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((d) => join(d, 'chromium')),
  ];
  return candidates.find(isExecutable);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
