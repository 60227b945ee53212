// The sitemaps of a large register (ADR 0021): on a PostgreSQL database with companies (DATABASE_URL),
// builds a language's sitemap index and streams every company sitemap through the same generator
// the /sitemaps/{lang}/companies-{n}.xml route sends, counting URLs and bytes without keeping them.
// Prints the time of the index, each block's time, the whole run, and the process's peak RSS.
//
//   DATABASE_URL=postgres://… npx node bench/sitemaps.ts [--lang en] [--blocks N]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { companySitemap, sitemapIndex } from '../core/sitemaps/sitemaps.ts';
import { openPostgres } from '../db/client.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to a PostgreSQL database with companies.');
const { values } = parseArgs({ options: { lang: { type: 'string', default: 'en' }, blocks: { type: 'string' } } });
const lang = values.lang === 'de' || values.lang === 'fr' ? values.lang : 'en';

const db = await openPostgres(url, 2);
let peakRss = process.memoryUsage().rss;
const sample = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const index = await sitemapIndex(db, 'https://registra.example', lang);
const indexMs = performance.now() - started;
// --blocks N streams only the first N company sitemaps (to compare the peak RSS of a small and a large run).
const blocks = [...index.matchAll(/companies-(\d+)\.xml/g)]
  .map((m) => Number(m[1]))
  .slice(0, values.blocks ? Number(values.blocks) : undefined);
let urls = 0;
let bytes = 0;
const blockMs: number[] = [];
for (const block of blocks) {
  const t0 = performance.now();
  for await (const piece of companySitemap(db, 'https://registra.example', lang, block)) {
    bytes += Buffer.byteLength(piece);
    urls += (piece.match(/<url>/g) ?? []).length;
  }
  blockMs.push(performance.now() - t0);
}
const totalMs = performance.now() - started;
clearInterval(sample);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
const sorted = [...blockMs].sort((a, b) => a - b);
console.log(
  [
    `sitemaps (${lang}): ${blocks.length} company sitemaps, ${urls.toLocaleString('en')} URLs, ${mb(bytes)} MB of XML`,
    `index ${indexMs.toFixed(0)} ms; one sitemap of 50,000: p50 ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms, max ${sorted[sorted.length - 1]?.toFixed(0)} ms; all ${(totalMs / 1000).toFixed(1)} s`,
    `RSS before ${mb(rssBefore)} MB, peak ${mb(peakRss)} MB (resourceUsage maxRSS ${mb(process.resourceUsage().maxRSS * 1024)} MB); load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  ].join('\n'),
);
await db.close();
