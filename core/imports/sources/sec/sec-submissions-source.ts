import { basename } from 'node:path';
import type { CompanyFacts, FactAddress, ImportItem, ImportSource } from '../../company-facts.ts';
import { countryCodeOf, US_STATES } from '../../country-codes.ts';
import { readSecSubmission, SEC_SUBMISSIONS, type SecAddress, type SecSubmission } from './read-submissions.ts';

// SEC EDGAR submissions onto CompanyFacts (docs/decisions/0016-national-registers.md). The SEC is
// no company register: a filer is keyed by its CIK (scheme sec-cik) and its state of incorporation
// is its jurisdiction (US-DE); the business address is the headquarters, the mailing address the
// postal one, and the recent filings are the company's documents.

export const SEC_CIK = 'sec-cik';

function address(value: SecAddress | null): FactAddress | null {
  if (!value) return null;
  const state = value.stateOrCountry?.toUpperCase() ?? null;
  const inUs = state !== null && US_STATES.has(state);
  const country = inUs
    ? 'US'
    : ((value.countryCode && /^[A-Z]{2}$/.test(value.countryCode) ? value.countryCode : null) ??
      countryCodeOf(value.country ?? value.stateOrCountryDescription ?? ''));
  const lines = [value.street1, value.street2].filter((line): line is string => Boolean(line));
  if (country === null || (lines.length === 0 && !value.city)) return null;
  return {
    lines,
    city: value.city ?? null,
    region: inUs ? `US-${state}` : null,
    postCode: value.zipCode ?? null,
    country,
  };
}

/** The state or country of incorporation; when the SEC names none we know, the headquarters' country (or state). */
function jurisdiction(submission: SecSubmission, headquarters: FactAddress | null): string | undefined {
  const state = submission.stateOfIncorporation?.toUpperCase();
  if (state && US_STATES.has(state)) return `US-${state}`;
  const country = countryCodeOf(submission.stateOfIncorporationDescription ?? '');
  return country ?? headquarters?.region ?? headquarters?.country ?? undefined;
}

/** "912197729" → "91-2197729"; the SEC's zeros are no number. */
function ein(value: string | null): string | null {
  const digits = value?.replace(/\D/g, '') ?? '';
  return /^\d{9}$/.test(digits) && !/^0+$/.test(digits) ? `${digits.slice(0, 2)}-${digits.slice(2)}` : null;
}

export function submissionFacts(submission: SecSubmission): CompanyFacts {
  const filedDates = submission.filings.flatMap((filing) => (filing.filedOn ? [filing.filedOn] : [])).sort();
  const latest = filedDates.at(-1);
  const headquarters = address(submission.businessAddress);
  return {
    keys: { others: [{ scheme: SEC_CIK, key: submission.cik }] },
    sourceDate: latest ? `${latest}T00:00:00Z` : null,
    name: submission.name,
    otherNames: submission.formerNames.map((former) => ({
      name: former.name,
      type: 'previous',
      language: 'en',
      until: former.to,
    })),
    addresses: { headquarters, postal: address(submission.mailingAddress) },
    jurisdiction: jurisdiction(submission, headquarters),
    identifiers: { tax_number: ein(submission.ein) },
    industries:
      submission.sic && submission.sic !== '0000' ? [{ scheme: 'us-sic', code: submission.sic, primary: true }] : [],
    tickers: submission.tickers,
    documents: submission.filings.flatMap((filing) =>
      filing.filedOn
        ? [
            {
              id: filing.accessionNumber,
              title:
                filing.description && filing.description !== filing.form ? filing.description : `Form ${filing.form}`,
              type: filing.form,
              filedOn: filing.filedOn,
            },
          ]
        : [],
    ),
  };
}

/**
 * The bulk archive's CIK##########-submissions-NNN.json entries are pages of a filer's older filings,
 * no company: passed over (a company's documents are its recent filings).
 */
export const OLDER_FILINGS_PAGE = /^CIK\d{10}-submissions-\d+\.json$/i;

export const secSubmissionsSource: ImportSource = {
  name: 'sec-submissions',
  expects: SEC_SUBMISSIONS,
  unit: 'record',
  async *read(input, file): AsyncGenerator<ImportItem> {
    if (OLDER_FILINGS_PAGE.test(basename(file.name))) {
      input.resume();
      return;
    }
    for await (const item of readSecSubmission(input)) {
      yield item.kind === 'reject'
        ? { kind: 'reject', at: item.line, reason: item.reason }
        : { kind: 'company', at: item.line, facts: submissionFacts(item.row) };
    }
  },
};
