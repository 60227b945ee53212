// Lighthouse scores of the main reading pages (ADR 0022): home, search, a company profile and a
// person page, on a running Registra (`--url`), in Debian's Chromium started headless with the
// flags this machine needs (no background networking: its connections are refused here). Prints
// the four category scores per page — performance, accessibility, best practices, SEO (targets
// 100 / ≥ 98 / 100 / 100) — as the median of `--runs` runs, and the load average. A bench, not a
// test: the performance score depends on the machine's load.
//
//   npx node bench/lighthouse.ts --url http://127.0.0.1:3000 [--runs 3] [--preset mobile|desktop]
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { findChromium } from '../e2e/support/chromium-path.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    runs: { type: 'string', default: '3' },
    preset: { type: 'string', default: 'mobile' },
  },
});
const base = values.url.replace(/\/$/, '');
const runs = Math.max(1, Number(values.runs) || 1);
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

/** The pages: a profile and a person found by following the site's own links. */
async function pages(): Promise<[string, string][]> {
  const html = async (path: string) => (await fetch(`${base}${path}`)).text();
  const profile = /href="(\/companies\/details\/[^"/]+\/)"/.exec(await html('/companies/search/'))?.[1];
  if (!profile) throw new Error('No company profile link on the search page: is the database empty?');
  const person = /href="(\/members\/details\/[^"]+\/\d+\/)"/.exec(await html(profile))?.[1];
  return [
    ['home', '/'],
    ['search', '/companies/search/?status=1'],
    ['profile', profile],
    ...(person ? [['person', person] as [string, string]] : []),
  ];
}

async function startChromium(): Promise<{ port: number; browser: ChildProcess; profile: string }> {
  const executable = findChromium();
  if (!executable) throw new Error('Lighthouse needs Chromium: sudo apt-get install -y chromium');
  const profile = await mkdtemp(join(tmpdir(), 'registra-lighthouse-'));
  const browser = spawn(
    executable,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    browser.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(seen);
      if (m) resolve(Number(m[1]));
    });
    browser.once('exit', (code) => reject(new Error(`Chromium exited (${code}): ${seen.slice(-500)}`)));
  });
  return { port, browser, profile };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const { port, browser, profile } = await startChromium();
try {
  console.log(
    `Lighthouse (${values.preset}, median of ${runs}) on ${base}; load average before ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(`page     perf  a11y  best  seo   path`);
  for (const [name, path] of await pages()) {
    const scores: Record<string, number[]> = Object.fromEntries(CATEGORIES.map((c) => [c, []]));
    const failed: string[] = [];
    for (let i = 0; i < runs; i++) {
      const result = await lighthouse(
        `${base}${path}`,
        { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] },
        values.preset === 'desktop' ? desktopConfig : undefined,
      );
      if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
      for (const c of CATEGORIES) scores[c].push(Math.round((result.lhr.categories[c]?.score ?? 0) * 100));
      // The audits that cost points, once (the first run), to fix what is not at 100.
      if (i === 0) {
        for (const c of CATEGORIES) {
          for (const ref of result.lhr.categories[c]?.auditRefs ?? []) {
            const audit = result.lhr.audits[ref.id];
            if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
              failed.push(`${c}: ${audit.id}`);
              // What the audit found (an element's selector, a console message), a few of them.
              const items = (audit.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
              for (const item of items.slice(0, 3)) failed.push(`  ${JSON.stringify(item).slice(0, 300)}`);
            }
          }
        }
      }
    }
    const cell = (c: (typeof CATEGORIES)[number]) => String(median(scores[c])).padEnd(6);
    console.log(
      `${name.padEnd(9)}${cell('performance')}${cell('accessibility')}${cell('best-practices')}${cell('seo')}${path}`,
    );
    if (failed.length > 0) console.log(`         below 100:\n           ${failed.join('\n           ')}`);
  }
  console.log(
    `load average after ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  browser.kill();
  // Chromium may still be writing its profile as it exits: retry until the folder is gone.
  await rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}
