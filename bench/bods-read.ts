import { createReadStream } from 'node:fs';
import { appendFile, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bodsSource } from '../core/imports/sources/bods/bods-source.ts';

// What reading a BODS file costs (ADR 0038 "BODS importer": a file is read whole before anything is
// yielded): time and the heap held, for a GENERATED JSON Lines file of N subjects, each an entity,
// an owning person and an owning entity, and two relationships (5 statements a subject). The
// database is not involved: this is the reader and the mapping onto CompanyFacts alone.
//
//   node bench/bods-read.ts --subjects 100000

const subjects = Number(process.argv[process.argv.indexOf('--subjects') + 1] || 100_000);
const dir = await mkdtemp(join(tmpdir(), 'registra-bods-bench-'));
const file = join(dir, 'statements.jsonl');
const base = (id: string, type: string, details: object) =>
  JSON.stringify({
    statementId: `s-${id}`,
    statementDate: '2024-01-01',
    publicationDetails: { publicationDate: '2024-01-01', bodsVersion: '0.4', publisher: { name: 'Bench' } },
    declarationSubject: id,
    recordId: id,
    recordStatus: 'new',
    recordType: type,
    recordDetails: { isComponent: false, ...details },
  });
await writeFile(file, '');
let lines: string[] = [];
for (let i = 0; i < subjects; i++) {
  if (lines.length >= 50_000) {
    await appendFile(file, `${lines.join('\n')}\n`);
    lines = [];
  }
  const number = String(10_000_000 + i).slice(-8);
  lines.push(
    base(`e${i}`, 'entity', {
      entityType: { type: 'registeredEntity' },
      name: `GENERATED COMPANY ${i} LIMITED`,
      identifiers: [{ scheme: 'GB-COH', id: number }],
    }),
    base(`p${i}`, 'person', {
      personType: 'knownPerson',
      names: [{ type: 'legal', fullName: `Generated Person ${i}` }],
      birthDate: '1970-01',
    }),
    base(`o${i}`, 'entity', {
      entityType: { type: 'registeredEntity' },
      name: `GENERATED OWNER ${i} LIMITED`,
      identifiers: [{ scheme: 'GB-COH', id: String(20_000_000 + i).slice(-8) }],
    }),
    base(`r${i}`, 'relationship', {
      subject: `e${i}`,
      interestedParty: `p${i}`,
      interests: [{ type: 'shareholding', directOrIndirect: 'direct', share: { minimum: 25, maximum: 50 } }],
    }),
    base(`q${i}`, 'relationship', {
      subject: `e${i}`,
      interestedParty: `o${i}`,
      interests: [{ type: 'votingRights', directOrIndirect: 'direct', share: { exact: 75 } }],
    }),
  );
}
await appendFile(file, `${lines.join('\n')}\n`);
lines = [];
const bytes = (await stat(file)).size;
globalThis.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
let peak = heapBefore;
const timer = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().heapUsed);
}, 20);
const started = performance.now();
let companies = 0;
for await (const item of bodsSource.read(createReadStream(file, { highWaterMark: 256 * 1024 }), { name: file })) {
  if (item.kind === 'company') companies += 1;
  peak = Math.max(peak, process.memoryUsage().heapUsed);
}
const seconds = (performance.now() - started) / 1000;
clearInterval(timer);
await rm(dir, { recursive: true, force: true });
const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
console.log(
  `${subjects.toLocaleString('en')} subjects, ${(subjects * 5).toLocaleString('en')} statements, ${mb(bytes)} MB: ` +
    `${seconds.toFixed(1)} s (${Math.round((subjects * 5) / seconds).toLocaleString('en')} statements/s), ` +
    `${companies.toLocaleString('en')} company records, heap peak ${mb(peak - heapBefore)} MB above the start`,
);
