// Every source's industry codes mapped onto the product's classification, NACE Rev. 2
// (docs/decisions/0017-industry-classification.md). Importers call industryForSourceCode with the
// code as the source writes it; the answer is the industry the company is filed under: the deepest
// NACE level the code names (a class, NACE's fourth level, for the national versions of NACE; a
// division for US SIC), or null for a code that names no activity (dormant, unknown,
// non-classifiable) — the importer then reports or skips it.

import { NACE_REV2, naceIndustryId } from '../../db/reference/nace-rev2.ts';

export type IndustryCodeSystem = 'nace-2' | 'uk-sic-2007' | 'sn2007' | 'us-sic' | 'naics-2017';
export const INDUSTRY_CODE_SYSTEMS: readonly IndustryCodeSystem[] = [
  'nace-2',
  'uk-sic-2007',
  'sn2007',
  'us-sic',
  'naics-2017',
];

export type HubIndustry = {
  /** The NACE Rev. 2 code of the industry the company is filed under (a class, group, division or section). */
  code: string;
  /** Its id in the industries table. */
  id: number;
};

const NACE_CODES = new Set(NACE_REV2.map((r) => r[0]));

function hub(code: string): HubIndustry | null {
  return NACE_CODES.has(code) ? { code, id: naceIndustryId(code) } : null;
}

/**
 * A NACE-based code's industry: the deepest NACE item its digits name, whatever the separators
 * ("62.01", "6201", "62.010"): its class (first four digits), else its group (first three), else
 * its division (first two) — a national code whose class or group NACE does not have (UK SIC's
 * 98000) falls back to the level above.
 */
function naceBased(code: string, digits: number): HubIndustry | null {
  const compact = code.replace(/[.\s]/g, '');
  if (!new RegExp(`^\\d{2,${digits}}$`).test(compact)) return null;
  const division = hub(compact.slice(0, 2));
  if (division === null || compact.length === 2) return division;
  const group = hub(`${compact.slice(0, 2)}.${compact[2]}`);
  const naceClass = compact.length >= 4 ? hub(`${compact.slice(0, 2)}.${compact.slice(2, 4)}`) : null;
  return naceClass ?? group ?? division;
}

/**
 * US SIC (1987, as the SEC assigns it) major groups → NACE Rev. 2 divisions, with the industry
 * groups and industries whose activity falls in another division listed before their major group
 * (the longest matching prefix wins). Ours, drawn up by hand along NACE's own definitions (ADR
 * 0017): no official US SIC → NACE table exists.
 */
const US_SIC: Record<string, string | null> = {
  '01': '01',
  '02': '01',
  '07': '01',
  '0742': '75',
  '0752': '96',
  '078': '81',
  '08': '02',
  '09': '03',
  '10': '07',
  '12': '05',
  '13': '06',
  '138': '09',
  '14': '08',
  '15': '41',
  '16': '42',
  '17': '43',
  '20': '10',
  '208': '11',
  '21': '12',
  '22': '13',
  '23': '14',
  '24': '16',
  '25': '31',
  '26': '17',
  '27': '58',
  '275': '18',
  '276': '18',
  '277': '18',
  '278': '18',
  '279': '18',
  '28': '20',
  '283': '21',
  '29': '19',
  '30': '22',
  '31': '15',
  '32': '23',
  '33': '24',
  '34': '25',
  '35': '28',
  '357': '26',
  '36': '27',
  '366': '26',
  '367': '26',
  '37': '29',
  '372': '30',
  '373': '30',
  '374': '30',
  '375': '30',
  '376': '30',
  '379': '30',
  '38': '26',
  '384': '32',
  '385': '32',
  '39': '32',
  '40': '49',
  '41': '49',
  '42': '49',
  '422': '52',
  '43': '53',
  '44': '50',
  '45': '51',
  '46': '49',
  '47': '52',
  '472': '79',
  '48': '61',
  '483': '60',
  '49': '35',
  '494': '36',
  '495': '38',
  '4952': '37',
  '50': '46',
  '501': '45',
  '51': '46',
  '52': '47',
  '53': '47',
  '54': '47',
  '55': '45',
  '554': '47',
  '56': '47',
  '57': '47',
  '58': '56',
  '59': '47',
  '60': '64',
  '61': '64',
  '62': '66',
  '63': '65',
  '64': '66',
  '65': '68',
  '67': '64',
  '70': '55',
  '72': '96',
  '73': '82',
  '731': '73',
  '732': '82',
  '733': '82',
  '734': '81',
  '735': '77',
  '736': '78',
  '737': '62',
  '7374': '63',
  '7381': '80',
  '7382': '80',
  '75': '45',
  '751': '77',
  '752': '52',
  '76': '95',
  '769': '33',
  '78': '59',
  '79': '93',
  '80': '86',
  '805': '87',
  '81': '69',
  '82': '85',
  '83': '88',
  '836': '87',
  '84': '91',
  '86': '94',
  '87': '71',
  '872': '69',
  '873': '72',
  '874': '70',
  '88': '97',
  // The SEC's 8880 (American depositary receipts) and 8888 (foreign governments) are no activity.
  '888': null,
  '89': '74',
  '91': '84',
  '92': '84',
  '93': '84',
  '94': '84',
  '95': '84',
  '96': '84',
  '97': '84',
};

function usSic(code: string): HubIndustry | null {
  const digits = code.trim();
  if (!/^\d{3,4}$/.test(digits)) return null;
  const sic = digits.padStart(4, '0');
  for (const length of [4, 3, 2]) {
    const division = US_SIC[sic.slice(0, length)];
    if (division !== undefined) return division === null ? null : hub(division);
  }
  return null;
}

/**
 * The industry a source's code files a company under, or null when the code names no activity.
 * - 'nace-2': a NACE Rev. 2 section letter or a division/group/class code, dotted or not: itself.
 * - 'uk-sic-2007': Companies House's five digits ("62020", or "62020 - Information technology …");
 *   its first four are the NACE class, the company's industry. 99999 (dormant company) is no activity.
 * - 'sn2007': Brønnøysund's næringskode ("62.010"); its first four digits are the NACE class, the
 *   company's industry. 00.000 (unknown) is no activity.
 * - 'us-sic': the SEC's four digits, through the table above; 9900–9999 (non-classifiable, and the
 *   SEC's own 99xx, 8880 and 8888) are no activity.
 * - 'naics-2017': not mapped yet (no source writes it; ADR 0017 names the official concordance to
 *   use): always null.
 */
export function industryForSourceCode(system: IndustryCodeSystem, code: string): HubIndustry | null {
  const text = code.trim();
  switch (system) {
    case 'nace-2':
      return /^[A-U]$/.test(text.toUpperCase()) ? hub(text.toUpperCase()) : naceBased(text, 4);
    case 'uk-sic-2007': {
      const digits = /^(\d{4,5})\b/.exec(text)?.[1];
      if (digits === undefined || digits === '99999') return null;
      return naceBased(digits, 5);
    }
    case 'sn2007':
      if (/^0+\.?0*$/.test(text)) return null;
      return naceBased(text, 5);
    case 'us-sic':
      return usSic(text);
    case 'naics-2017':
      return null;
  }
}
