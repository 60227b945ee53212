// The legal notice (Impressum, Mentions légales): who operates this site, as its operator sets it
// in the environment (server/env.ts, the README's configuration table). Never a default: a site
// whose operator has not said who they are shows that plainly rather than a made-up operator.

/** The operator of the site, as the legal notice page shows it. */
export type LegalNotice = {
  /** The operator's full name: a company with its legal form ("Example Data GmbH"), or a person. */
  operator: string;
  /** Postal address, one entry a line. */
  address: string[];
  email: string;
  phone?: string;
  /** Who may represent the operator (a managing director), where the law asks for it. */
  representative?: string;
  /** The register entry: court or register and number ("Amtsgericht Berlin-Charlottenburg, HRB 123456"). */
  register?: string;
  /** VAT identification number ("DE123456789"). */
  vatId?: string;
};

/** The settings a legal notice is made of, as the environment names them. */
export type LegalNoticeSettings = {
  LEGAL_OPERATOR?: string;
  LEGAL_ADDRESS?: string;
  LEGAL_EMAIL?: string;
  LEGAL_PHONE?: string;
  LEGAL_REPRESENTATIVE?: string;
  LEGAL_REGISTER?: string;
  LEGAL_VAT_ID?: string;
};

/** The settings a notice cannot do without. */
const REQUIRED = ['LEGAL_OPERATOR', 'LEGAL_ADDRESS', 'LEGAL_EMAIL'] as const;

/**
 * The legal notice of the settings: null when none is set (the page then says the operator has not
 * set it); an error naming what is missing when only some are (half a notice is no notice).
 */
export function legalNoticeOf(settings: LegalNoticeSettings): LegalNotice | null {
  const given = Object.values(settings).some((v) => v !== undefined && v.trim() !== '');
  if (!given) return null;
  const missing = REQUIRED.filter((key) => !settings[key]?.trim());
  if (missing.length > 0)
    throw new Error(
      `Invalid environment: the legal notice needs ${missing.join(', ')} (set with ${REQUIRED.filter((k) => !missing.includes(k)).join(', ') || 'the other LEGAL_ settings'})`,
    );
  const optional = (value: string | undefined) => value?.trim() || undefined;
  return {
    operator: settings.LEGAL_OPERATOR?.trim() ?? '',
    // Lines separated by ";" (an environment variable holds one line).
    address: (settings.LEGAL_ADDRESS ?? '')
      .split(';')
      .map((line) => line.trim())
      .filter(Boolean),
    email: settings.LEGAL_EMAIL?.trim() ?? '',
    phone: optional(settings.LEGAL_PHONE),
    representative: optional(settings.LEGAL_REPRESENTATIVE),
    register: optional(settings.LEGAL_REGISTER),
    vatId: optional(settings.LEGAL_VAT_ID)?.replace(/\s+/g, '').toUpperCase(),
  };
}
