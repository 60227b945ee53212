// URL slugs for reference records and companies: lower-case ASCII words joined by hyphens.

const SPECIAL_LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  ø: 'o',
  œ: 'oe',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/** "Côte d’Ivoire" → "cote-divoire", "Müller & Söhne GmbH" → "muller-sohne-gmbh". */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[ßæøœłđðþı]/g, (c) => SPECIAL_LETTERS[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/['’ʼ`]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
