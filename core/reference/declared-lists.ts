import { type EnumValue, enumField } from '../sections/record-fields.ts';
import { recordSection } from '../sections/records.ts';

// The reference lists of spec §7 that no reference table holds: what real-estate and vehicle
// records are described with. A list that a record field stores (categories, real-estate types,
// property use, fuel types) is that field's declared values (core/sections/records.ts), so that a
// value added to the field is listed here too; the others are declared below, in the same shape
// ([id, uri, en, de, fr]: ids, once given, are never changed or reused; tests/fixtures/enum-ids.json pins
// them). Each declared list follows a published classification, named above it, so that data from a
// source that uses it maps value for value.

export type DeclaredList = {
  /** The API path (under /api); the operation is named after it (server/api/reference.ts). */
  url: string;
  summary: string;
  values: EnumValue[];
};

/** The values of an enumerated field of a record section. */
function fieldValues(section: string, key: string): EnumValue[] {
  const values = recordSection(section)?.fields.find((f) => f.key === key)?.values;
  if (!values) throw new Error(`no enumerated field ${key} in the ${section} section`);
  return values;
}

/** A list declared here: the same checks as an enumerated field's values (distinct smallint ids). */
function declared(name: string, values: [number, string, string, string, string][]): EnumValue[] {
  return enumField(name, [name, name, name], values).values ?? [];
}

export const DECLARED_LISTS: DeclaredList[] = [
  {
    url: '/measures',
    summary: 'Units of measure of areas and lengths',
    // UN/CEFACT Recommendation 20 units (their common codes after each value).
    values: declared('measure', [
      [1, 'square-metre', 'Square metre', 'Quadratmeter', 'Mètre carré'], // MTK
      [2, 'square-foot', 'Square foot', 'Quadratfuß', 'Pied carré'], // FTK
      [3, 'hectare', 'Hectare', 'Hektar', 'Hectare'], // HAR
      [4, 'acre', 'Acre', 'Acre', 'Acre'], // ACR
      [5, 'square-kilometre', 'Square kilometre', 'Quadratkilometer', 'Kilomètre carré'], // KMK
      [6, 'metre', 'Metre', 'Meter', 'Mètre'], // MTR
      [7, 'foot', 'Foot', 'Fuß', 'Pied'], // FOT
      [8, 'square-yard', 'Square yard', 'Quadratyard', 'Yard carré'], // YDK
      [9, 'kilometre', 'Kilometre', 'Kilometer', 'Kilomètre'], // KMT
      [10, 'mile', 'Mile', 'Meile', 'Mille'], // SMI
    ]),
  },
  {
    url: '/real_estate_types',
    summary: 'Real-estate types (building, parcel, …)',
    values: fieldValues('real-estate', 'type'),
  },
  {
    url: '/classes',
    summary: 'Building classes (A: newest and best equipped … C: oldest)',
    // BOMA's office building classes, used by brokers in North America and Europe alike.
    values: declared('class', [
      [1, 'class-a', 'Class A', 'Klasse A', 'Classe A'],
      [2, 'class-b', 'Class B', 'Klasse B', 'Classe B'],
      [3, 'class-c', 'Class C', 'Klasse C', 'Classe C'],
    ]),
  },
  {
    url: '/land_use',
    summary: 'Land use (zoning)',
    // The activity groups of the APA Land-Based Classification Standards (LBCS, "function" dimension),
    // with mixed use as zoning codes name it.
    values: declared('land_use', [
      [1, 'residential', 'Residential', 'Wohnen', 'Résidentiel'],
      [2, 'commercial', 'Commercial', 'Gewerbe', 'Commercial'],
      [3, 'industrial', 'Industrial', 'Industrie', 'Industriel'],
      [4, 'agricultural', 'Agricultural', 'Landwirtschaft', 'Agricole'],
      [5, 'recreational', 'Recreational', 'Erholung', 'Loisirs'],
      [6, 'institutional', 'Institutional', 'Öffentliche Einrichtungen', 'Équipements publics'],
      [7, 'transport', 'Transport', 'Verkehr', 'Transport'],
      [8, 'mixed-use', 'Mixed use', 'Mischnutzung', 'Usage mixte'],
      [9, 'mining', 'Mining and extraction', 'Bergbau und Gewinnung', 'Mines et extraction'],
      [10, 'utilities', 'Utilities', 'Versorgung', 'Services publics de réseau'],
    ]),
  },
  {
    url: '/land_types',
    summary: 'Land types (land cover)',
    // The eleven land-cover classes of ESA WorldCover (its class code after each value).
    values: declared('land_type', [
      [1, 'built-up', 'Built-up land', 'Bebaute Fläche', 'Terrain bâti'], // 50
      [2, 'cropland', 'Cropland', 'Ackerland', 'Terres cultivées'], // 40
      [3, 'grassland', 'Grassland', 'Grünland', 'Prairies'], // 30
      [4, 'forest', 'Forest', 'Wald', 'Forêt'], // 10 tree cover
      [5, 'wetland', 'Wetland', 'Feuchtgebiet', 'Zone humide'], // 90 herbaceous wetland
      [6, 'barren', 'Barren land', 'Ödland', 'Terrain nu'], // 60 bare or sparse vegetation
      [7, 'water', 'Water', 'Gewässer', 'Eau'], // 80 permanent water bodies
      [8, 'shrubland', 'Shrubland', 'Buschland', 'Zone arbustive'], // 20
      [9, 'snow-and-ice', 'Snow and ice', 'Schnee und Eis', 'Neige et glace'], // 70
      [10, 'mangroves', 'Mangroves', 'Mangroven', 'Mangroves'], // 95
      [11, 'moss-and-lichen', 'Moss and lichen', 'Moose und Flechten', 'Mousses et lichens'], // 100
    ]),
  },
  {
    url: '/categories',
    summary: 'Real-estate categories (residential, commercial, …)',
    values: fieldValues('real-estate', 'category'),
  },
  {
    url: '/property_use',
    summary: 'Property use (office, retail, …)',
    values: fieldValues('real-estate', 'property_use'),
  },
  {
    url: '/neighborhoods',
    summary: 'Neighbourhood types',
    // The urban–rural degrees of the EU's DEGURBA (city, town and suburb, rural), the city split into
    // its centre and the rest, and the two business districts listings name.
    values: declared('neighborhood', [
      [1, 'city-centre', 'City centre', 'Innenstadt', 'Centre-ville'],
      [2, 'urban', 'Urban', 'Städtisch', 'Urbain'],
      [3, 'suburban', 'Suburban', 'Vorstädtisch', 'Périurbain'],
      [4, 'rural', 'Rural', 'Ländlich', 'Rural'],
      [5, 'industrial-area', 'Industrial area', 'Industriegebiet', 'Zone industrielle'],
      [6, 'business-park', 'Business park', 'Gewerbepark', "Parc d'activités"],
      [7, 'town', 'Town', 'Kleinstadt', 'Petite ville'],
    ]),
  },
  {
    url: '/climate_types',
    summary: 'Climate types (the main groups of the Köppen classification)',
    values: declared('climate_type', [
      [1, 'tropical', 'Tropical', 'Tropisch', 'Tropical'], // A
      [2, 'arid', 'Arid', 'Trocken', 'Aride'], // B
      [3, 'temperate', 'Temperate', 'Gemäßigt', 'Tempéré'], // C
      [4, 'continental', 'Continental', 'Kontinental', 'Continental'], // D
      [5, 'polar', 'Polar', 'Polar', 'Polaire'], // E
    ]),
  },
  {
    url: '/fuel_types',
    summary: 'Fuel types (of vehicles)',
    values: fieldValues('vehicles', 'fuel_type'),
  },
  {
    url: '/building_material_types',
    summary: 'Building-material types (of construction)',
    // The main structural materials of the construction classes insurers and surveyors use
    // (frame, masonry, fire-resistive), with glass for curtain walls.
    values: declared('building_material_type', [
      [1, 'concrete', 'Concrete', 'Beton', 'Béton'],
      [2, 'steel', 'Steel', 'Stahl', 'Acier'],
      [3, 'wood', 'Wood', 'Holz', 'Bois'],
      [4, 'brick', 'Brick', 'Ziegel', 'Brique'],
      [5, 'stone', 'Stone', 'Naturstein', 'Pierre'],
      [6, 'glass', 'Glass', 'Glas', 'Verre'],
      [7, 'mixed', 'Mixed', 'Gemischt', 'Mixte'],
    ]),
  },
];
