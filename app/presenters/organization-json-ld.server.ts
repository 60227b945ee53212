import type { CompanyProfile } from '../../core/companies/get-company.ts';
import type { Reference } from '../../core/reference/reference-data.ts';

// schema.org JSON-LD of a company profile (ADR 0021): an Organization with its legal name, the
// identifiers a search engine knows (LEI as `leiCode`, the rest as PropertyValue identifiers), its
// registered address and founding date. Written into a data block (`application/ld+json`), which no
// browser runs; `<` is escaped so that no value can close the element.

const ADDRESS_PREFERENCE = ['registered', 'headquarter', 'postal'];

export function organizationJsonLd(company: CompanyProfile, reference: Reference, url: string): string {
  const identifier = company.identifiers.map((i) => {
    const type = reference.identifierTypes.byId.get(i.identifier_type_id);
    return { '@type': 'PropertyValue', propertyID: type?.uri ?? 'identifier', value: i.identifier };
  });
  const lei = company.identifiers.find((i) => reference.identifierTypes.byId.get(i.identifier_type_id)?.uri === 'lei');
  const address = [...company.addresses].sort(
    (a, b) =>
      rank(reference.addressTypes.byId.get(a.address_type_id)?.uri) -
      rank(reference.addressTypes.byId.get(b.address_type_id)?.uri),
  )[0];
  const country = address?.country_id ? reference.locations.byId.get(address.country_id) : undefined;
  const data = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': url,
    url,
    name: company.name,
    legalName: company.name,
    ...(lei ? { leiCode: lei.identifier } : {}),
    ...(identifier.length > 0 ? { identifier } : {}),
    ...(company.registered_on ? { foundingDate: company.registered_on } : {}),
    ...(address
      ? {
          address: {
            '@type': 'PostalAddress',
            streetAddress:
              [address.address_line_1, address.address_line_2].filter(Boolean).join(', ') ||
              [address.street, address.house].filter(Boolean).join(' ') ||
              undefined,
            postalCode: address.post_code ?? undefined,
            addressLocality: address.locality ?? undefined,
            addressRegion: address.state ?? undefined,
            addressCountry: country?.country_code || undefined,
          },
        }
      : {}),
  };
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

function rank(uri: string | undefined): number {
  const at = ADDRESS_PREFERENCE.indexOf(uri ?? '');
  return at === -1 ? ADDRESS_PREFERENCE.length : at;
}
