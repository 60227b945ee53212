// Writes a Companies House BasicCompanyData file of demo companies in the real layout, for the import
// benchmark (docs/decisions/0016-national-registers.md):
//   npx node bench/companies-house-file.ts --rows 1000000 --out /tmp/BasicCompanyData-2026-11-01.csv [--seed 1] [--changed-every 100]
// --changed-every 100 writes the update file in which 1% of the companies differ (address line, accounts due).
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { writeCompaniesHouseFile } from '../db/seed/companies-house-file.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    out: { type: 'string' },
    seed: { type: 'string', default: '1' },
    'changed-every': { type: 'string', default: '0' },
  },
});
const count = z.coerce.number().int().nonnegative();
const options = z
  .object({ rows: count, out: z.string().min(1, 'is required'), seed: count, changedEvery: count })
  .parse({ rows: values.rows, out: values.out ?? '', seed: values.seed, changedEvery: values['changed-every'] });
const started = Date.now();
await writeCompaniesHouseFile(options);
console.log(
  `Wrote ${options.rows.toLocaleString('en')} companies to ${options.out} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
);
