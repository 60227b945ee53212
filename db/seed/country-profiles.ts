// How companies look in each jurisdiction of the demo data: weights, the language of their names,
// legal forms (with the legal_entity_kinds id they map to), addresses, phone numbers and currency.
// Person names come from faker's locale data; cities and streets from faker where it has real ones,
// otherwise from the short lists here.

import type { Random } from '../../core/seeded-random.ts';

/** The language of company-name words (industry words, adjectives, connectors). */
export type NameLanguage = 'en' | 'de' | 'fr' | 'es' | 'it' | 'nl' | 'pl' | 'sv' | 'nb' | 'da' | 'pt' | 'fi';

export type StreetStyle =
  | 'de'
  | 'nl'
  | 'fr'
  | 'es'
  | 'it'
  | 'pl'
  | 'sv'
  | 'nb'
  | 'da'
  | 'fi'
  | 'pt'
  | 'us'
  | 'gb'
  | 'au'
  | 'jp'
  | 'asia'
  | 'ae'
  | 'in'
  | 'mx';

export type LegalForm = {
  /** Written after the name ('GmbH'), or before it when it ends with a space ('Stichting '). */
  form: string;
  kind: number;
  weight: number;
};

export type CountryProfile = {
  code: string;
  language: NameLanguage;
  /** faker locales for person names, most specific first (English is the last resort). */
  people: string[];
  /** faker locale whose city list is real for this country, if any. */
  fakerCities?: string;
  /** faker locale whose street list is real for this country, if any. */
  fakerStreets?: string;
  /** 'City:Region:PostCodePattern' (region and pattern optional): the big cities, with their region. */
  cities: string[];
  street: StreetStyle;
  /** '#' digit, '?' upper-case letter, '@' non-zero digit. */
  postCodes: string[];
  phones: string[];
  currency: string;
  tld: string;
  forms: LegalForm[];
  /** Forms for non-profit organisations (kind 5). */
  nonProfitForms: LegalForm[];
};

export type Jurisdiction = {
  country: string;
  /** ISO 3166-2 code when the jurisdiction is a subdivision location (US state, canton, …). */
  subdivision?: string;
  weight: number;
  cities?: string[];
  postCodes?: string[];
  language?: NameLanguage;
  forms?: LegalForm[];
  phones?: string[];
  /** People's name locales when they differ from the country's (Québec, Romandy, Ticino). */
  people?: string[];
};

const list = (text: string): string[] => text.split('|');

// Legal forms -------------------------------------------------------------------------------------
// kinds: 1 corporation, 2 limited liability company, 3 partnership, 4 sole proprietorship,
// 5 non-profit, 6 cooperative, 7 branch, 8 public company

const f = (form: string, kind: number, weight: number): LegalForm => ({ form, kind, weight });

const US_FORMS = [
  f('LLC', 2, 45),
  f('Inc.', 1, 30),
  f('Corp.', 1, 8),
  f('Corporation', 1, 3),
  f('Co.', 1, 2),
  f('LP', 3, 3),
  f('LLP', 3, 2),
  f('PLLC', 2, 2),
  f('Holdings, Inc.', 1, 2),
  f('Cooperative', 6, 1),
  f('Company', 1, 2),
];
const CA_FORMS = [
  f('Inc.', 1, 45),
  f('Ltd.', 2, 25),
  f('Corp.', 1, 12),
  f('ULC', 2, 3),
  f('LP', 3, 5),
  f('Co-operative', 6, 2),
];
const QC_FORMS = [f('inc.', 1, 45), f('ltée', 2, 25), f('S.E.C.', 3, 5), f('Coopérative', 6, 3), f('Corp.', 1, 8)];
const CH_DE_FORMS = [
  f('AG', 1, 45),
  f('GmbH', 2, 45),
  f('Genossenschaft', 6, 4),
  f('& Co.', 3, 3),
  f('Kollektivgesellschaft', 3, 2),
];
const CH_FR_FORMS = [f('SA', 1, 45), f('Sàrl', 2, 45), f('Société coopérative', 6, 4), f('& Cie', 3, 4)];
const CH_IT_FORMS = [f('SA', 1, 50), f('Sagl', 2, 45), f('Società cooperativa', 6, 4)];
const AE_FORMS = [
  f('LLC', 2, 45),
  f('L.L.C.', 2, 15),
  f('FZE', 2, 12),
  f('FZ-LLC', 2, 10),
  f('FZCO', 2, 8),
  f('PJSC', 8, 3),
  f('Branch', 7, 5),
];
const HK_FORMS = [
  f('Limited', 2, 65),
  f('Company Limited', 2, 20),
  f('Holdings Limited', 1, 8),
  f('Group Limited', 1, 5),
];
const GB_FORMS = [
  f('Ltd', 2, 55),
  f('Limited', 2, 25),
  f('PLC', 8, 3),
  f('LLP', 3, 7),
  f('CIC', 5, 1),
  f('& Co', 3, 2),
  f('Group Ltd', 1, 3),
];
const DE_FORMS = [
  f('GmbH', 2, 55),
  f('UG (haftungsbeschränkt)', 2, 8),
  f('AG', 8, 4),
  f('KG', 3, 5),
  f('GmbH & Co. KG', 3, 12),
  f('OHG', 3, 3),
  f('eG', 6, 2),
  f('e.K.', 4, 5),
  f('SE', 8, 0.5),
];
const AT_FORMS = [
  f('GmbH', 2, 60),
  f('AG', 8, 5),
  f('KG', 3, 8),
  f('OG', 3, 6),
  f('GmbH & Co KG', 3, 8),
  f('e.U.', 4, 8),
  f('eGen', 6, 2),
];
const FR_FORMS = [
  f('SARL', 2, 30),
  f('SAS', 1, 30),
  f('SASU', 1, 12),
  f('SA', 8, 6),
  f('EURL', 2, 8),
  f('SNC', 3, 3),
  f('SCOP', 6, 2),
  f('SCI', 3, 6),
];
const BE_NL_FORMS = [f('BV', 2, 55), f('NV', 8, 15), f('CV', 6, 5), f('VOF', 3, 5), f('CommV', 3, 3)];
const BE_FR_FORMS = [f('SRL', 2, 55), f('SA', 8, 15), f('SC', 6, 5), f('SNC', 3, 5), f('SComm', 3, 3)];
const NL_FORMS = [
  f('B.V.', 2, 70),
  f('N.V.', 8, 4),
  f('V.O.F.', 3, 10),
  f('C.V.', 3, 3),
  f('Coöperatie U.A.', 6, 2),
  f('Holding B.V.', 2, 8),
];
const ES_FORMS = [
  f('S.L.', 2, 60),
  f('S.A.', 8, 15),
  f('S.L.U.', 2, 12),
  f('S.Coop.', 6, 3),
  f('S.C.', 3, 2),
  f('S.L.L.', 2, 2),
];
const IT_FORMS = [
  f('S.r.l.', 2, 60),
  f('S.p.A.', 8, 10),
  f('S.n.c.', 3, 8),
  f('S.a.s.', 3, 8),
  f('S.r.l.s.', 2, 6),
  f('Soc. Coop.', 6, 4),
];
const PL_FORMS = [f('Sp. z o.o.', 2, 70), f('S.A.', 8, 8), f('Sp.k.', 3, 8), f('Sp.j.', 3, 6), f('Spółdzielnia', 6, 2)];
const SE_FORMS = [f('AB', 1, 80), f('AB (publ)', 8, 3), f('HB', 3, 7), f('KB', 3, 4), f('ek. för.', 6, 3)];
const NO_FORMS = [f('AS', 1, 78), f('ASA', 8, 4), f('ANS', 3, 5), f('DA', 3, 4), f('SA', 6, 3), f('ENK', 4, 6)];
const DK_FORMS = [
  f('ApS', 2, 60),
  f('A/S', 1, 25),
  f('I/S', 3, 5),
  f('K/S', 3, 3),
  f('A.m.b.a.', 6, 3),
  f('P/S', 3, 2),
];
const FI_FORMS = [f('Oy', 1, 80), f('Oyj', 8, 4), f('Ky', 3, 8), f('Ay', 3, 4), f('Osuuskunta', 6, 3)];
const IE_FORMS = [
  f('Limited', 2, 55),
  f('Ltd', 2, 20),
  f('DAC', 2, 8),
  f('PLC', 8, 3),
  f('Unlimited Company', 1, 3),
  f('CLG', 5, 3),
];
const AU_FORMS = [f('Pty Ltd', 2, 80), f('Ltd', 8, 6), f('Pty. Ltd.', 2, 8), f('Partnership', 3, 3)];
const NZ_FORMS = [f('Limited', 2, 80), f('Ltd', 2, 12), f('Partnership', 3, 4)];
const SG_FORMS = [f('Pte. Ltd.', 2, 75), f('Pte Ltd', 2, 10), f('Ltd.', 8, 4), f('LLP', 3, 6)];
const JP_FORMS = [f('Co., Ltd.', 1, 55), f('K.K.', 1, 20), f('G.K.', 2, 15), f('Corporation', 1, 8)];
const BR_FORMS = [f('Ltda.', 2, 65), f('S.A.', 8, 12), f('EIRELI', 4, 8), f('ME', 4, 8), f('Cooperativa', 6, 3)];
const MX_FORMS = [
  f('S.A. de C.V.', 1, 60),
  f('S. de R.L. de C.V.', 2, 25),
  f('S.C.', 3, 8),
  f('S.A.P.I. de C.V.', 8, 4),
];
const IN_FORMS = [f('Private Limited', 2, 70), f('Pvt. Ltd.', 2, 12), f('Limited', 8, 8), f('LLP', 3, 8)];
const PT_FORMS = [f('Lda.', 2, 70), f('S.A.', 8, 15), f('Unipessoal Lda.', 2, 12)];
const LU_FORMS = [f('S.à r.l.', 2, 60), f('S.A.', 8, 30), f('SCS', 3, 5), f('SCSp', 3, 5)];

const EN_NON_PROFIT = [f('Foundation', 5, 3), f('Association', 5, 2), f('Inc.', 5, 2)];
const nonProfit = (forms: string, weight = 1): LegalForm[] => list(forms).map((form) => f(form, 5, weight));

// Post codes and phone numbers ------------------------------------------------------------------

const GB_POST = list(
  'SW1A #??|EC1V #??|EC2A #??|W1F #??|WC2N #??|E14 #??|N1 #??|SE1 #??|M1 #??|M3 #??|B1 #??|B3 #??|LS1 #??|LS2 #??|G2 #??|EH2 #??|EH3 #??|' +
    'CF10 #??|BS1 #??|L1 #??|L3 #??|NE1 #??|S1 #??|NG1 #??|LE1 #??|CB2 #??|OX1 #??|RG1 #??|MK9 #??|BT1 #??|AB10 #??|BN1 #??',
);

// Streets (for the styles that are not in faker) ------------------------------------------------

export const STREET_WORDS: Record<string, string[]> = {
  nlStem: list(
    'Kerk|Molen|Dorps|Stations|Hoofd|School|Markt|Beuken|Eiken|Linden|Prinsen|Keizers|Heren|Wilhelmina|Juliana|Beatrix|Oranje|Haven|Nieuwe|Oude|Zuid|Noord|Industrie|Kanaal|Brink|Akker|Berken|Kastanje|Rozen|Tulpen',
  ),
  nlSuffix: list('straat|laan|weg|plein|gracht|kade|singel|dijk|steeg'),
  fr: list(
    'de la République|de la Paix|Victor Hugo|Jean Jaurès|Pasteur|du Général de Gaulle|des Lilas|de la Gare|du Moulin|Nationale|de Paris|du Château|des Écoles|Gambetta|Voltaire|Saint-Michel|de la Liberté|du Commerce|Émile Zola|des Acacias|Foch|Carnot|de Verdun|de l’Église|du Port|Montaigne|Haussmann|de Rivoli|du Faubourg Saint-Honoré|Sainte-Catherine',
  ),
  frType: list('rue|rue|rue|avenue|boulevard|place|chemin|allée|impasse|quai'),
  es: list(
    'Mayor|Real|de la Constitución|de Alcalá|Gran Vía|San Juan|del Sol|de Cervantes|de la Castellana|Serrano|Diagonal|de Gràcia|Colón|de la Paz|del Carmen|San Francisco|de Andalucía|Sagasta|Velázquez|de la Libertad|del Prado|de Goya|Princesa|Aragón|Valencia',
  ),
  esType: list('Calle|Calle|Calle|Avenida|Paseo|Plaza|Carrer|Camino|Ronda'),
  it: list(
    'Roma|Garibaldi|Mazzini|Dante|Cavour|Verdi|Vittorio Emanuele II|XX Settembre|Manzoni|Marconi|Matteotti|della Repubblica|Nazionale|del Corso|Torino|Milano|San Marco|dei Mille|Montenapoleone|della Libertà|Solferino|Kennedy|Indipendenza|del Popolo|Gramsci',
  ),
  itType: list('Via|Via|Via|Viale|Corso|Piazza|Largo|Vicolo'),
  pl: list(
    'Marszałkowska|Mickiewicza|Kościuszki|Słowackiego|Piłsudskiego|Długa|Polna|Leśna|Ogrodowa|Kwiatowa|Lipowa|Szkolna|Sienkiewicza|Jana Pawła II|Krakowska|Warszawska|Zielona|Słoneczna|Puławska|Grunwaldzka|Wrocławska|Kolejowa|Parkowa|Świętokrzyska|Żelazna',
  ),
  svStem: list(
    'Stor|Kungs|Drottning|Skol|Kyrk|Järnvägs|Industri|Sjö|Park|Björk|Ek|Lind|Tall|Gran|Strand|Hamn|Torg|Åker|Ängs|Norra Lång|Södra Lång|Väster|Öster|Fabriks|Kvarn',
  ),
  svSuffix: list('gatan|gatan|vägen|vägen|gränd|backen|torget'),
  nbStem: list(
    'Kirke|Skole|Stor|Kongens|Dronningens|Strand|Sjø|Park|Bjørke|Eike|Linde|Furu|Gran|Havne|Torg|Åker|Eng|Nord|Sør|Vest|Øst|Fabrikk|Mølle|Stasjons|Bryggen',
  ),
  nbSuffix: list('gata|gate|veien|veien|vegen|allé|bakken'),
  fiStem: list(
    'Mannerheimin|Aleksanterin|Hämeen|Kauppa|Tehtaan|Kirkko|Koulu|Rauta|Satama|Puisto|Koivu|Mänty|Kuusi|Asema|Linnan|Rannan|Myllyn|Teollisuus|Pohjois|Etelä',
  ),
  fiSuffix: list('katu|katu|tie|tie|polku|kuja'),
  pt: list(
    'das Flores|XV de Novembro|Sete de Setembro|Paulista|Brasil|Getúlio Vargas|Dom Pedro II|Tiradentes|da Liberdade|do Comércio|São João|Santos Dumont|Marechal Deodoro|Rio Branco|Augusta|da Consolação|Boa Vista|da República|dos Bandeirantes|da Independência|Almirante Reis|da Boavista|de Santa Catarina|Presidente Vargas|Faria Lima',
  ),
  ptType: list('Rua|Rua|Rua|Avenida|Praça|Travessa|Alameda|Largo'),
  usName: list(
    'Main|Oak|Maple|Pine|Cedar|Elm|Washington|Lincoln|Jefferson|Madison|Park|Lake|Hill|Church|Market|Broad|Spring|Ridge|Sunset|Highland|Franklin|Jackson|Adams|Walnut|Chestnut|Willow|Center|River|Union|Liberty|Commerce|Industrial|Harbor|Meadow|Forest|1st|2nd|3rd|5th|7th|10th|Mill|Grand|Prospect|Summit|Madison|Monroe|Wilson|Hamilton',
  ),
  usSuffix: list('Street|Street|Avenue|Avenue|Boulevard|Road|Drive|Lane|Way|Court|Place|Parkway|Plaza'),
  auName: list(
    'George|King|Queen|Elizabeth|Victoria|Collins|Pitt|Bourke|Flinders|Adelaide|Swanston|Macquarie|Hunter|Albert|Edward|William|Oxford|Church|Chapel|High|Beach|Station|Railway|Park|Bay',
  ),
  auSuffix: list('Street|Street|Road|Avenue|Parade|Terrace|Highway|Place|Lane|Crescent'),
  asiaName: list(
    "Queen's Road|Nathan Road|Hennessy Road|Des Voeux Road|Connaught Road|Gloucester Road|Canton Road|Lockhart Road|Kwun Tong Road|Castle Peak Road|Orchard Road|Raffles Place|Cecil Street|Robinson Road|Anson Road|Shenton Way|Beach Road|North Bridge Road|Tanjong Pagar Road|Bukit Timah Road|Harbour Road|Wellington Street|Hollywood Road|Jalan Besar|Marina Boulevard",
  ),
  building: list(
    'Tower|Centre|Building|Plaza|House|Commercial Building|Industrial Building|Square|Court|Point|Exchange|Hub',
  ),
  buildingName: list(
    'Harbour|Pacific|Golden|Central|Pearl|Jade|Phoenix|Dragon|Lucky|Prosperity|Fortune|Orient|Peninsula|Asia|Capital|Crystal|Silver|Ocean|Victoria|Emperor|Sun|Star|Cosmo|Regent|Grand|Wing|Hang|Tai|Shun|Kowloon',
  ),
  ae: list(
    'Sheikh Zayed Road|Al Wasl Road|Jumeirah Beach Road|Al Maktoum Road|Khalifa Street|Corniche Road|Hamdan Street|Al Khaleej Road|Baniyas Road|Airport Road|Al Garhoud Road|Al Rigga Road|King Faisal Street|Al Muroor Road|Electra Street|Al Ittihad Road',
  ),
  aeArea: list(
    'Business Bay|Deira|Bur Dubai|Jumeirah Lake Towers|Dubai Marina|Al Barsha|Downtown Dubai|Al Quoz|DIFC|Dubai Silicon Oasis|Al Karama|Jebel Ali Free Zone|Al Nahda|Al Reem Island|Al Khalidiyah|Musaffah|Al Majaz|Al Qasimia',
  ),
  jpArea: list(
    'Marunouchi|Otemachi|Nihonbashi|Shinjuku|Shibuya|Roppongi|Ginza|Akasaka|Shinagawa|Umeda|Namba|Honmachi|Sakae|Meieki|Tenjin|Hakata|Kita-ku|Chuo-ku|Minato-ku|Chiyoda-ku|Nishi-ku|Naka-ku',
  ),
  inName: list(
    'MG Road|Linking Road|Brigade Road|Nehru Place|Park Street|Anna Salai|Residency Road|Nariman Point|Bandra Kurla Complex|Connaught Place|Banjara Hills|Koramangala|Whitefield|Andheri East|Salt Lake Sector V|Hinjewadi|Cyber City|Sector 18|Outer Ring Road|Lal Bahadur Shastri Marg',
  ),
  mx: list(
    'Reforma|Insurgentes Sur|Juárez|Revolución|Hidalgo|Morelos|Madero|Universidad|Constituyentes|Chapultepec|Vallarta|Constitución|Juan Pablo II|Benito Juárez|Miguel Alemán|Lázaro Cárdenas|Río Churubusco|Periférico Sur',
  ),
  mxColonia: list(
    'Centro|Polanco|Roma Norte|Condesa|Del Valle|Juárez|Nápoles|Santa Fe|Lomas de Chapultepec|Coyoacán|San Ángel|Providencia|Americana|Obispado|San Pedro Garza García|Zona Río',
  ),
};

// Countries -------------------------------------------------------------------------------------

const EU_PHONE_DE = [
  '+49 30 ########',
  '+49 40 #######',
  '+49 89 ########',
  '+49 69 #######',
  '+49 221 #######',
  '+49 #### ######',
];

export const COUNTRY_PROFILES: Record<string, CountryProfile> = {
  US: {
    code: 'US',
    language: 'en',
    people: ['english', 'en_US', 'en'],
    cities: [],
    street: 'us',
    postCodes: ['#####'],
    phones: ['+1 (@##) @##-####'],
    currency: 'USD',
    tld: 'com',
    forms: US_FORMS,
    nonProfitForms: EN_NON_PROFIT,
  },
  CA: {
    code: 'CA',
    language: 'en',
    people: ['english', 'en_CA', 'en'],
    cities: [],
    street: 'us',
    postCodes: ['?#? #?#'],
    phones: ['+1 (@##) @##-####'],
    currency: 'CAD',
    tld: 'ca',
    forms: CA_FORMS,
    nonProfitForms: nonProfit('Foundation|Association|Society'),
  },
  CH: {
    code: 'CH',
    language: 'de',
    people: ['de_CH', 'de'],
    fakerStreets: 'de_CH',
    cities: [],
    street: 'de',
    postCodes: ['@###'],
    phones: ['+41 44 ### ## ##', '+41 22 ### ## ##', '+41 61 ### ## ##', '+41 31 ### ## ##', '+41 41 ### ## ##'],
    currency: 'CHF',
    tld: 'ch',
    forms: CH_DE_FORMS,
    nonProfitForms: nonProfit('Stiftung|Verein'),
  },
  AE: {
    code: 'AE',
    language: 'en',
    people: ['ae'],
    cities: [],
    street: 'ae',
    postCodes: ['P.O. Box @####', 'P.O. Box @###'],
    phones: ['+971 4 ### ####', '+971 2 ### ####', '+971 6 ### ####', '+971 5# ### ####'],
    currency: 'AED',
    tld: 'ae',
    forms: AE_FORMS,
    nonProfitForms: nonProfit('Foundation|Association'),
  },
  HK: {
    code: 'HK',
    language: 'en',
    people: ['hk'],
    cities: ['Hong Kong', 'Kowloon', 'New Territories'],
    street: 'asia',
    postCodes: [''],
    phones: ['+852 2### ####', '+852 3### ####', '+852 9### ####'],
    currency: 'HKD',
    tld: 'com.hk',
    forms: HK_FORMS,
    nonProfitForms: nonProfit('Foundation Limited|Association Limited'),
  },
  GB: {
    code: 'GB',
    language: 'en',
    people: ['english', 'en_GB', 'en'],
    fakerStreets: 'en_GB',
    cities: list(
      'London:England:EC# #??|London:England:SW1# #??|London:England:W1# #??|London:England:E1# #??|London:England:WC2# #??|London:England:N1 #??|Birmingham:England:B# #??|Manchester:England:M# #??|Leeds:England:LS# #??|Glasgow:Scotland:G# #??|Liverpool:England:L# #??|Bristol:England:BS# #??|Sheffield:England:S# #??|Edinburgh:Scotland:EH# #??|Cardiff:Wales:CF10 #??|Leicester:England:LE# #??|Nottingham:England:NG# #??|Newcastle upon Tyne:England:NE# #??|Belfast:Northern Ireland:BT# #??|Brighton:England:BN# #??|Southampton:England:SO## #??|Portsmouth:England:PO# #??|Plymouth:England:PL# #??|Reading:England:RG# #??|Aberdeen:Scotland:AB1# #??|Coventry:England:CV# #??|Derby:England:DE# #??|York:England:YO## #??|Oxford:England:OX# #??|Cambridge:England:CB# #??|Norwich:England:NR# #??|Exeter:England:EX# #??|Bath:England:BA# #??|Milton Keynes:England:MK# #??|Swansea:Wales:SA# #??|Dundee:Scotland:DD# #??|Stoke-on-Trent:England:ST# #??|Wolverhampton:England:WV# #??|Sunderland:England:SR# #??|Preston:England:PR# #??|Luton:England:LU# #??|Northampton:England:NN# #??|Ipswich:England:IP# #??|Peterborough:England:PE# #??|Chester:England:CH# #??',
    ),
    street: 'gb',
    postCodes: GB_POST,
    phones: ['+44 20 #### ####', '+44 161 ### ####', '+44 121 ### ####', '+44 131 ### ####', '+44 1### ######'],
    currency: 'GBP',
    tld: 'co.uk',
    forms: GB_FORMS,
    nonProfitForms: nonProfit('Foundation|Trust|Association|Charitable Trust'),
  },
  DE: {
    code: 'DE',
    language: 'de',
    people: ['de'],
    fakerCities: 'de',
    fakerStreets: 'de',
    cities: list(
      'Berlin:Berlin:1####|Hamburg:Hamburg:2####|München:Bayern:8####|Köln:Nordrhein-Westfalen:5####|Frankfurt am Main:Hessen:60###|Stuttgart:Baden-Württemberg:70###|Düsseldorf:Nordrhein-Westfalen:40###|Leipzig:Sachsen:04###|Dortmund:Nordrhein-Westfalen:44###|Essen:Nordrhein-Westfalen:45###|Bremen:Bremen:28###|Dresden:Sachsen:01###|Hannover:Niedersachsen:30###|Nürnberg:Bayern:90###|Duisburg:Nordrhein-Westfalen:47###|Bochum:Nordrhein-Westfalen:44###|Wuppertal:Nordrhein-Westfalen:42###|Bielefeld:Nordrhein-Westfalen:33###|Bonn:Nordrhein-Westfalen:53###|Münster:Nordrhein-Westfalen:48###|Mannheim:Baden-Württemberg:68###|Karlsruhe:Baden-Württemberg:76###|Augsburg:Bayern:86###|Wiesbaden:Hessen:65###|Mainz:Rheinland-Pfalz:55###|Kiel:Schleswig-Holstein:24###|Rostock:Mecklenburg-Vorpommern:18###|Erfurt:Thüringen:99###|Magdeburg:Sachsen-Anhalt:39###|Potsdam:Brandenburg:14###|Saarbrücken:Saarland:66###|Freiburg im Breisgau:Baden-Württemberg:79###|Regensburg:Bayern:93###|Würzburg:Bayern:97###|Heidelberg:Baden-Württemberg:69###|Göttingen:Niedersachsen:37###|Lübeck:Schleswig-Holstein:23###|Osnabrück:Niedersachsen:49###',
    ),
    street: 'de',
    postCodes: ['@####'],
    phones: EU_PHONE_DE,
    currency: 'EUR',
    tld: 'de',
    forms: DE_FORMS,
    nonProfitForms: [f('e.V.', 5, 6), f('Stiftung', 5, 2), f('gGmbH', 5, 2)],
  },
  AT: {
    code: 'AT',
    language: 'de',
    people: ['de_AT', 'de'],
    fakerStreets: 'de_AT',
    cities: list(
      'Wien:Wien:1###|Graz:Steiermark:80##|Linz:Oberösterreich:40##|Salzburg:Salzburg:50##|Innsbruck:Tirol:60##|Klagenfurt:Kärnten:90##|Villach:Kärnten:95##|Wels:Oberösterreich:46##|St. Pölten:Niederösterreich:31##|Dornbirn:Vorarlberg:68##|Wiener Neustadt:Niederösterreich:27##|Steyr:Oberösterreich:44##|Feldkirch:Vorarlberg:68##|Bregenz:Vorarlberg:69##|Leoben:Steiermark:87##|Krems an der Donau:Niederösterreich:35##|Eisenstadt:Burgenland:70##',
    ),
    street: 'de',
    postCodes: ['@###'],
    phones: ['+43 1 #######', '+43 316 ######', '+43 732 ######', '+43 662 ######'],
    currency: 'EUR',
    tld: 'at',
    forms: AT_FORMS,
    nonProfitForms: nonProfit('Verein|Privatstiftung'),
  },
  FR: {
    code: 'FR',
    language: 'fr',
    people: ['fr'],
    fakerCities: 'fr',
    cities: list(
      'Paris:Île-de-France:75###|Lyon:Auvergne-Rhône-Alpes:69###|Marseille:Provence-Alpes-Côte d’Azur:13###|Toulouse:Occitanie:31###|Nice:Provence-Alpes-Côte d’Azur:06###|Nantes:Pays de la Loire:44###|Strasbourg:Grand Est:67###|Montpellier:Occitanie:34###|Bordeaux:Nouvelle-Aquitaine:33###|Lille:Hauts-de-France:59###|Rennes:Bretagne:35###|Reims:Grand Est:51###|Le Havre:Normandie:76###|Saint-Étienne:Auvergne-Rhône-Alpes:42###|Toulon:Provence-Alpes-Côte d’Azur:83###|Grenoble:Auvergne-Rhône-Alpes:38###|Dijon:Bourgogne-Franche-Comté:21###|Angers:Pays de la Loire:49###|Nîmes:Occitanie:30###|Clermont-Ferrand:Auvergne-Rhône-Alpes:63###|Tours:Centre-Val de Loire:37###|Orléans:Centre-Val de Loire:45###|Rouen:Normandie:76###|Caen:Normandie:14###|Metz:Grand Est:57###|Nancy:Grand Est:54###|Boulogne-Billancourt:Île-de-France:92###|Nanterre:Île-de-France:92###|Versailles:Île-de-France:78###|Ajaccio:Corse:20###',
    ),
    street: 'fr',
    postCodes: [
      '75###',
      '69###',
      '13###',
      '31###',
      '06###',
      '44###',
      '67###',
      '33###',
      '59###',
      '35###',
      '92###',
      '@####',
    ],
    phones: ['+33 1 ## ## ## ##', '+33 4 ## ## ## ##', '+33 5 ## ## ## ##', '+33 2 ## ## ## ##', '+33 3 ## ## ## ##'],
    currency: 'EUR',
    tld: 'fr',
    forms: FR_FORMS,
    nonProfitForms: nonProfit('Association|Fondation'),
  },
  BE: {
    code: 'BE',
    language: 'nl',
    people: ['nl_BE', 'nl'],
    cities: list(
      'Brussel:Brussels Hoofdstedelijk Gewest:1000|Antwerpen:Vlaanderen:2000|Gent:Vlaanderen:9000|Brugge:Vlaanderen:8000|Leuven:Vlaanderen:3000|Mechelen:Vlaanderen:2800|Aalst:Vlaanderen:9300|Kortrijk:Vlaanderen:8500|Hasselt:Vlaanderen:3500|Oostende:Vlaanderen:8400|Sint-Niklaas:Vlaanderen:9100|Genk:Vlaanderen:3600|Roeselare:Vlaanderen:8800|Turnhout:Vlaanderen:2300',
    ),
    street: 'nl',
    postCodes: ['@###'],
    phones: ['+32 2 ### ## ##', '+32 3 ### ## ##', '+32 9 ### ## ##', '+32 4 ### ## ##'],
    currency: 'EUR',
    tld: 'be',
    forms: BE_NL_FORMS,
    nonProfitForms: nonProfit('VZW|Stichting van openbaar nut'),
  },
  NL: {
    code: 'NL',
    language: 'nl',
    people: ['nl'],
    cities: list(
      "Amsterdam:Noord-Holland:10## ??|Rotterdam:Zuid-Holland:30## ??|Den Haag:Zuid-Holland:25## ??|Utrecht:Utrecht:35## ??|Eindhoven:Noord-Brabant:56## ??|Groningen:Groningen:97## ??|Tilburg:Noord-Brabant:50## ??|Almere:Flevoland:13## ??|Breda:Noord-Brabant:48## ??|Nijmegen:Gelderland:65## ??|Apeldoorn:Gelderland:73## ??|Haarlem:Noord-Holland:20## ??|Arnhem:Gelderland:68## ??|Enschede:Overijssel:75## ??|Amersfoort:Utrecht:38## ??|Zaanstad:Noord-Holland:15## ??|'s-Hertogenbosch:Noord-Brabant:52## ??|Zwolle:Overijssel:80## ??|Leiden:Zuid-Holland:23## ??|Maastricht:Limburg:62## ??|Dordrecht:Zuid-Holland:33## ??|Zoetermeer:Zuid-Holland:27## ??|Delft:Zuid-Holland:26## ??|Alkmaar:Noord-Holland:18## ??|Leeuwarden:Friesland:89## ??|Venlo:Limburg:59## ??|Deventer:Overijssel:74## ??|Hilversum:Noord-Holland:12## ??|Heerlen:Limburg:64## ??|Gouda:Zuid-Holland:28## ??|Middelburg:Zeeland:43## ??|Assen:Drenthe:94## ??",
    ),
    street: 'nl',
    postCodes: ['@### ??'],
    phones: ['+31 20 ### ####', '+31 10 ### ####', '+31 70 ### ####', '+31 30 ### ####', '+31 6 ########'],
    currency: 'EUR',
    tld: 'nl',
    forms: NL_FORMS,
    nonProfitForms: [f('Stichting ', 5, 3), f('Vereniging ', 5, 1)],
  },
  ES: {
    code: 'ES',
    language: 'es',
    people: ['es'],
    fakerCities: 'es',
    cities: list(
      'Madrid:Comunidad de Madrid:28###|Barcelona:Cataluña:08###|Valencia:Comunidad Valenciana:46###|Sevilla:Andalucía:41###|Zaragoza:Aragón:50###|Málaga:Andalucía:29###|Murcia:Región de Murcia:30###|Palma:Islas Baleares:07###|Las Palmas de Gran Canaria:Canarias:35###|Bilbao:País Vasco:48###|Alicante:Comunidad Valenciana:03###|Córdoba:Andalucía:14###|Valladolid:Castilla y León:47###|Vigo:Galicia:36###|Gijón:Asturias:33###|A Coruña:Galicia:15###|Granada:Andalucía:18###|Vitoria-Gasteiz:País Vasco:01###|Santander:Cantabria:39###|Pamplona:Navarra:31###|San Sebastián:País Vasco:20###|Logroño:La Rioja:26###|Toledo:Castilla-La Mancha:45###|Badajoz:Extremadura:06###|Oviedo:Asturias:33###|Salamanca:Castilla y León:37###',
    ),
    street: 'es',
    postCodes: ['28###', '08###', '46###', '41###', '50###', '29###', '48###', '03###', '0####', '1####', '3####'],
    phones: ['+34 91 ### ## ##', '+34 93 ### ## ##', '+34 96 ### ## ##', '+34 95 ### ## ##', '+34 6## ### ###'],
    currency: 'EUR',
    tld: 'es',
    forms: ES_FORMS,
    nonProfitForms: [f('Fundación ', 5, 2), f('Asociación ', 5, 1)],
  },
  IT: {
    code: 'IT',
    language: 'it',
    people: ['it'],
    fakerCities: 'it',
    cities: list(
      'Roma:Lazio:00###|Milano:Lombardia:20###|Napoli:Campania:80###|Torino:Piemonte:10###|Palermo:Sicilia:90###|Genova:Liguria:16###|Bologna:Emilia-Romagna:40###|Firenze:Toscana:50###|Bari:Puglia:70###|Catania:Sicilia:95###|Venezia:Veneto:30###|Verona:Veneto:37###|Padova:Veneto:35###|Brescia:Lombardia:25###|Bergamo:Lombardia:24###|Modena:Emilia-Romagna:41###|Parma:Emilia-Romagna:43###|Trieste:Friuli-Venezia Giulia:34###|Cagliari:Sardegna:09###|Perugia:Umbria:06###|Ancona:Marche:60###|Pescara:Abruzzo:65###|Trento:Trentino-Alto Adige:38###|Bolzano:Trentino-Alto Adige:39###|Reggio Calabria:Calabria:89###|Monza:Lombardia:20###|Como:Lombardia:22###|Aosta:Valle d’Aosta:11###',
    ),
    street: 'it',
    postCodes: ['00###', '20###', '80###', '10###', '90###', '16###', '40###', '50###', '70###', '30###', '@####'],
    phones: ['+39 02 ########', '+39 06 ########', '+39 011 #######', '+39 051 #######', '+39 3## #######'],
    currency: 'EUR',
    tld: 'it',
    forms: IT_FORMS,
    nonProfitForms: [f('Fondazione ', 5, 2), f('Associazione ', 5, 1), f('Onlus', 5, 1)],
  },
  PL: {
    code: 'PL',
    language: 'pl',
    people: ['pl'],
    fakerCities: 'pl',
    cities: list(
      'Warszawa:mazowieckie:0#-###|Kraków:małopolskie:3#-###|Łódź:łódzkie:9#-###|Wrocław:dolnośląskie:5#-###|Poznań:wielkopolskie:6#-###|Gdańsk:pomorskie:80-###|Szczecin:zachodniopomorskie:70-###|Bydgoszcz:kujawsko-pomorskie:85-###|Lublin:lubelskie:20-###|Białystok:podlaskie:15-###|Katowice:śląskie:40-###|Gdynia:pomorskie:81-###|Częstochowa:śląskie:42-###|Rzeszów:podkarpackie:35-###|Toruń:kujawsko-pomorskie:87-###|Kielce:świętokrzyskie:25-###|Olsztyn:warmińsko-mazurskie:10-###|Opole:opolskie:45-###|Zielona Góra:lubuskie:65-###',
    ),
    street: 'pl',
    postCodes: ['@#-###'],
    phones: ['+48 22 ### ## ##', '+48 12 ### ## ##', '+48 61 ### ## ##', '+48 71 ### ## ##', '+48 5## ### ###'],
    currency: 'PLN',
    tld: 'pl',
    forms: PL_FORMS,
    nonProfitForms: [f('Fundacja ', 5, 2), f('Stowarzyszenie ', 5, 1)],
  },
  SE: {
    code: 'SE',
    language: 'sv',
    people: ['sv'],
    cities: list(
      'Stockholm:Stockholms län:1## ##|Göteborg:Västra Götalands län:4## ##|Malmö:Skåne län:2## ##|Uppsala:Uppsala län:75# ##|Västerås:Västmanlands län:72# ##|Örebro:Örebro län:70# ##|Linköping:Östergötlands län:58# ##|Helsingborg:Skåne län:25# ##|Jönköping:Jönköpings län:55# ##|Norrköping:Östergötlands län:60# ##|Lund:Skåne län:22# ##|Umeå:Västerbottens län:90# ##|Gävle:Gävleborgs län:80# ##|Borås:Västra Götalands län:50# ##|Södertälje:Stockholms län:15# ##|Eskilstuna:Södermanlands län:63# ##|Halmstad:Hallands län:30# ##|Växjö:Kronobergs län:35# ##|Karlstad:Värmlands län:65# ##|Sundsvall:Västernorrlands län:85# ##|Luleå:Norrbottens län:97# ##|Östersund:Jämtlands län:83# ##|Trollhättan:Västra Götalands län:46# ##|Kalmar:Kalmar län:39# ##|Falun:Dalarnas län:79# ##|Skövde:Västra Götalands län:54# ##|Kristianstad:Skåne län:29# ##',
    ),
    street: 'sv',
    postCodes: ['@## ##'],
    phones: ['+46 8 ### ### ##', '+46 31 ### ## ##', '+46 40 ### ## ##', '+46 7# ### ## ##'],
    currency: 'SEK',
    tld: 'se',
    forms: SE_FORMS,
    nonProfitForms: nonProfit('Stiftelse|Ideell förening'),
  },
  NO: {
    code: 'NO',
    language: 'nb',
    people: ['nb_NO'],
    cities: list(
      'Oslo:Oslo:0###|Bergen:Vestland:50##|Trondheim:Trøndelag:70##|Stavanger:Rogaland:40##|Drammen:Viken:30##|Fredrikstad:Viken:16##|Kristiansand:Agder:46##|Sandnes:Rogaland:43##|Tromsø:Troms og Finnmark:90##|Sarpsborg:Viken:17##|Skien:Vestfold og Telemark:37##|Ålesund:Møre og Romsdal:60##|Sandefjord:Vestfold og Telemark:32##|Haugesund:Rogaland:55##|Tønsberg:Vestfold og Telemark:31##|Moss:Viken:15##|Porsgrunn:Vestfold og Telemark:39##|Bodø:Nordland:80##|Arendal:Agder:48##|Hamar:Innlandet:23##|Larvik:Vestfold og Telemark:32##|Halden:Viken:17##|Lillehammer:Innlandet:26##|Molde:Møre og Romsdal:64##|Harstad:Troms og Finnmark:94##|Gjøvik:Innlandet:28##|Kongsberg:Viken:36##',
    ),
    street: 'nb',
    postCodes: ['@###', '0###'],
    phones: ['+47 2# ## ## ##', '+47 5# ## ## ##', '+47 7# ## ## ##', '+47 9# ## ## ##'],
    currency: 'NOK',
    tld: 'no',
    forms: NO_FORMS,
    nonProfitForms: nonProfit('Stiftelse|Forening'),
  },
  DK: {
    code: 'DK',
    language: 'da',
    people: ['da'],
    fakerCities: 'da',
    fakerStreets: 'da',
    cities: list(
      'København:Region Hovedstaden:1###|Aarhus:Region Midtjylland:8000|Odense:Region Syddanmark:5000|Aalborg:Region Nordjylland:9000|Esbjerg:Region Syddanmark:67##|Randers:Region Midtjylland:89##|Kolding:Region Syddanmark:60##|Horsens:Region Midtjylland:87##|Vejle:Region Syddanmark:71##|Roskilde:Region Sjælland:4000|Herning:Region Midtjylland:74##|Hørsholm:Region Hovedstaden:2970|Næstved:Region Sjælland:4700|Køge:Region Sjælland:4600|Ærøskøbing:Region Syddanmark:5970|Marstal:Region Syddanmark:5960|Sønderborg:Region Syddanmark:6400|Helsingør:Region Hovedstaden:3000',
    ),
    street: 'da',
    postCodes: ['@###'],
    phones: ['+45 ## ## ## ##'],
    currency: 'DKK',
    tld: 'dk',
    forms: DK_FORMS,
    nonProfitForms: nonProfit('Fond|Forening'),
  },
  FI: {
    code: 'FI',
    language: 'fi',
    people: ['fi'],
    fakerCities: 'fi',
    cities: list(
      'Helsinki:Uusimaa:00###|Espoo:Uusimaa:02###|Tampere:Pirkanmaa:33###|Vantaa:Uusimaa:01###|Oulu:Pohjois-Pohjanmaa:90###|Turku:Varsinais-Suomi:20###|Jyväskylä:Keski-Suomi:40###|Lahti:Päijät-Häme:15###|Kuopio:Pohjois-Savo:70###|Pori:Satakunta:28###|Joensuu:Pohjois-Karjala:80###|Lappeenranta:Etelä-Karjala:53###|Hämeenlinna:Kanta-Häme:13###|Vaasa:Pohjanmaa:65###|Seinäjoki:Etelä-Pohjanmaa:60###|Rovaniemi:Lappi:96###',
    ),
    street: 'fi',
    postCodes: ['00###', '02###', '33###', '90###', '20###', '@####'],
    phones: ['+358 9 #### ###', '+358 3 #### ###', '+358 4# ### ####'],
    currency: 'EUR',
    tld: 'fi',
    forms: FI_FORMS,
    nonProfitForms: nonProfit('ry|Säätiö sr'),
  },
  IE: {
    code: 'IE',
    language: 'en',
    people: ['english', 'en_IE', 'en_GB', 'en'],
    cities: list(
      'Dublin:County Dublin:D0@ ?#?#|Dublin:County Dublin:D1# ?#?#|Cork:County Cork:T12 ?#?#|Limerick:County Limerick:V94 ?#?#|Galway:County Galway:H91 ?#?#|Waterford:County Waterford:X91 ?#?#|Drogheda:County Louth:A92 ?#?#|Kilkenny:County Kilkenny:R95 ?#?#|Sligo:County Sligo:F91 ?#?#|Athlone:County Westmeath:N37 ?#?#|Dundalk:County Louth:A91 ?#?#|Swords:County Dublin:K67 ?#?#|Bray:County Wicklow:A98 ?#?#|Navan:County Meath:C15 ?#?#|Ennis:County Clare:V95 ?#?#|Tralee:County Kerry:V92 ?#?#|Carlow:County Carlow:R93 ?#?#|Naas:County Kildare:W91 ?#?#|Wexford:County Wexford:Y35 ?#?#|Letterkenny:County Donegal:F92 ?#?#',
    ),
    street: 'gb',
    fakerStreets: 'en_GB',
    postCodes: ['D0@ ?#?#', 'D1# ?#?#', 'T12 ?#?#', 'V94 ?#?#', 'H91 ?#?#', 'X91 ?#?#', 'A@# ?#?#'],
    phones: ['+353 1 ### ####', '+353 21 ### ####', '+353 61 ### ####', '+353 8# ### ####'],
    currency: 'EUR',
    tld: 'ie',
    forms: IE_FORMS,
    nonProfitForms: nonProfit('CLG|Foundation CLG'),
  },
  AU: {
    code: 'AU',
    language: 'en',
    people: ['english', 'en_AU', 'en'],
    cities: list(
      'Sydney:New South Wales:2###|Melbourne:Victoria:3###|Brisbane:Queensland:4###|Perth:Western Australia:6###|Adelaide:South Australia:5###|Gold Coast:Queensland:42##|Canberra:Australian Capital Territory:26##|Newcastle:New South Wales:23##|Wollongong:New South Wales:25##|Hobart:Tasmania:70##|Geelong:Victoria:32##|Townsville:Queensland:48##|Cairns:Queensland:48##|Darwin:Northern Territory:08##|Toowoomba:Queensland:43##|Ballarat:Victoria:33##|Bendigo:Victoria:35##|Launceston:Tasmania:72##|Mackay:Queensland:47##|Parramatta:New South Wales:21##',
    ),
    street: 'au',
    postCodes: ['2###', '3###', '4###', '5###', '6###', '7###', '0800'],
    phones: ['+61 2 #### ####', '+61 3 #### ####', '+61 7 #### ####', '+61 8 #### ####', '+61 4## ### ###'],
    currency: 'AUD',
    tld: 'com.au',
    forms: AU_FORMS,
    nonProfitForms: nonProfit('Foundation Ltd|Association Inc.|Limited'),
  },
  NZ: {
    code: 'NZ',
    language: 'en',
    people: ['english', 'en_AU', 'en_GB', 'en'],
    cities: list(
      'Auckland:Auckland:1###|Wellington:Wellington:6###|Christchurch:Canterbury:8###|Hamilton:Waikato:32##|Tauranga:Bay of Plenty:31##|Dunedin:Otago:90##|Palmerston North:Manawatū-Whanganui:44##|Napier:Hawke’s Bay:41##|Nelson:Nelson:70##|Rotorua:Bay of Plenty:30##|New Plymouth:Taranaki:43##|Whangārei:Northland:01##|Invercargill:Southland:98##|Whanganui:Manawatū-Whanganui:45##|Gisborne:Gisborne:40##|Queenstown:Otago:93##',
    ),
    street: 'au',
    postCodes: ['0###', '1###', '3###', '5###', '6###', '8###', '9###'],
    phones: ['+64 9 ### ####', '+64 4 ### ####', '+64 3 ### ####', '+64 2# ### ####'],
    currency: 'NZD',
    tld: 'co.nz',
    forms: NZ_FORMS,
    nonProfitForms: nonProfit('Trust|Incorporated Society|Charitable Trust'),
  },
  SG: {
    code: 'SG',
    language: 'en',
    people: ['hk', 'en_IN'],
    cities: ['Singapore'],
    street: 'asia',
    postCodes: ['0#####', '1#####', '2#####', '3#####', '4#####', '5#####', '6#####', '7#####'],
    phones: ['+65 6### ####', '+65 8### ####', '+65 9### ####'],
    currency: 'SGD',
    tld: 'com.sg',
    forms: SG_FORMS,
    nonProfitForms: nonProfit('Foundation Ltd|Society'),
  },
  JP: {
    code: 'JP',
    language: 'en',
    people: ['jp'],
    cities: list(
      'Tokyo:Tokyo:1##-####|Osaka:Osaka:5##-####|Yokohama:Kanagawa:2##-####|Nagoya:Aichi:4##-####|Sapporo:Hokkaido:0##-####|Fukuoka:Fukuoka:8##-####|Kobe:Hyogo:65#-####|Kawasaki:Kanagawa:21#-####|Kyoto:Kyoto:60#-####|Saitama:Saitama:33#-####|Hiroshima:Hiroshima:73#-####|Sendai:Miyagi:98#-####|Chiba:Chiba:26#-####|Kitakyushu:Fukuoka:80#-####|Sakai:Osaka:59#-####|Niigata:Niigata:95#-####|Hamamatsu:Shizuoka:43#-####|Kumamoto:Kumamoto:86#-####|Okayama:Okayama:70#-####|Shizuoka:Shizuoka:42#-####|Kagoshima:Kagoshima:89#-####|Kanazawa:Ishikawa:92#-####|Nagano:Nagano:38#-####|Nara:Nara:63#-####|Matsuyama:Ehime:79#-####',
    ),
    street: 'jp',
    postCodes: ['1##-####', '5##-####', '2##-####', '4##-####', '8##-####', '0##-####'],
    phones: ['+81 3-####-####', '+81 6-####-####', '+81 52-###-####', '+81 92-###-####', '+81 90-####-####'],
    currency: 'JPY',
    tld: 'co.jp',
    forms: JP_FORMS,
    nonProfitForms: nonProfit('Foundation|Association'),
  },
  BR: {
    code: 'BR',
    language: 'pt',
    people: ['pt_BR', 'br', 'pt_PT'],
    cities: list(
      'São Paulo:São Paulo:0####-###|Rio de Janeiro:Rio de Janeiro:2####-###|Brasília:Distrito Federal:70###-###|Salvador:Bahia:4####-###|Fortaleza:Ceará:60###-###|Belo Horizonte:Minas Gerais:3####-###|Manaus:Amazonas:69###-###|Curitiba:Paraná:8####-###|Recife:Pernambuco:5####-###|Goiânia:Goiás:74###-###|Belém:Pará:66###-###|Porto Alegre:Rio Grande do Sul:9####-###|Guarulhos:São Paulo:07###-###|Campinas:São Paulo:13###-###|São Luís:Maranhão:65###-###|Maceió:Alagoas:57###-###|Natal:Rio Grande do Norte:59###-###|Florianópolis:Santa Catarina:88###-###|Vitória:Espírito Santo:29###-###|Ribeirão Preto:São Paulo:14###-###|Uberlândia:Minas Gerais:38###-###|Sorocaba:São Paulo:18###-###|Joinville:Santa Catarina:89###-###|Londrina:Paraná:86###-###|Niterói:Rio de Janeiro:24###-###|Santos:São Paulo:11###-###',
    ),
    street: 'pt',
    postCodes: ['0####-###', '2####-###', '3####-###', '4####-###', '7####-###', '8####-###', '9####-###'],
    phones: ['+55 11 ####-####', '+55 21 ####-####', '+55 31 ####-####', '+55 11 9####-####', '+55 41 ####-####'],
    currency: 'BRL',
    tld: 'com.br',
    forms: BR_FORMS,
    nonProfitForms: [f('Associação ', 5, 2), f('Instituto ', 5, 1), f('Fundação ', 5, 1)],
  },
  PT: {
    code: 'PT',
    language: 'pt',
    people: ['pt_PT'],
    fakerCities: 'pt_PT',
    cities: list(
      'Lisboa:Lisboa:1###-###|Porto:Porto:4###-###|Braga:Braga:47##-###|Coimbra:Coimbra:30##-###|Funchal:Madeira:90##-###|Aveiro:Aveiro:38##-###|Faro:Faro:80##-###|Setúbal:Setúbal:29##-###|Viseu:Viseu:35##-###|Leiria:Leiria:24##-###|Évora:Évora:70##-###|Guimarães:Braga:48##-###|Ponta Delgada:Açores:95##-###',
    ),
    street: 'pt',
    postCodes: ['1###-###', '4###-###', '3###-###', '@###-###'],
    phones: ['+351 21# ### ###', '+351 22# ### ###', '+351 9## ### ###'],
    currency: 'EUR',
    tld: 'pt',
    forms: PT_FORMS,
    nonProfitForms: [f('Associação ', 5, 2), f('Fundação ', 5, 1)],
  },
  MX: {
    code: 'MX',
    language: 'es',
    people: ['es_MX', 'es'],
    fakerCities: 'es_MX',
    cities: list(
      'Ciudad de México:Ciudad de México:0####|Guadalajara:Jalisco:44###|Monterrey:Nuevo León:64###|Puebla:Puebla:72###|Tijuana:Baja California:22###|León:Guanajuato:37###|Querétaro:Querétaro:76###|Mérida:Yucatán:97###|Cancún:Quintana Roo:77###|Toluca:Estado de México:50###|San Luis Potosí:San Luis Potosí:78###|Aguascalientes:Aguascalientes:20###|Chihuahua:Chihuahua:31###|Hermosillo:Sonora:83###|Veracruz:Veracruz:91###',
    ),
    street: 'mx',
    postCodes: ['0####', '1####', '4####', '6####', '7####'],
    phones: ['+52 55 #### ####', '+52 33 #### ####', '+52 81 #### ####', '+52 1 55 #### ####'],
    currency: 'MXN',
    tld: 'com.mx',
    forms: MX_FORMS,
    nonProfitForms: nonProfit('A.C.|Fundación A.C.|I.A.P.'),
  },
  IN: {
    code: 'IN',
    language: 'en',
    people: ['en_IN'],
    fakerCities: 'en_IN',
    cities: list(
      'Mumbai:Maharashtra:400###|Delhi:Delhi:110###|Bengaluru:Karnataka:560###|Hyderabad:Telangana:500###|Chennai:Tamil Nadu:600###|Kolkata:West Bengal:700###|Pune:Maharashtra:411###|Ahmedabad:Gujarat:380###|Jaipur:Rajasthan:302###|Surat:Gujarat:395###|Lucknow:Uttar Pradesh:226###|Noida:Uttar Pradesh:201###|Gurugram:Haryana:122###|Kochi:Kerala:682###|Chandigarh:Chandigarh:160###|Indore:Madhya Pradesh:452###',
    ),
    street: 'in',
    postCodes: ['1#####', '4#####', '5#####', '6#####', '7#####', '@#####'],
    phones: ['+91 22 #### ####', '+91 11 #### ####', '+91 80 #### ####', '+91 9#########'],
    currency: 'INR',
    tld: 'in',
    forms: IN_FORMS,
    nonProfitForms: nonProfit('Foundation|Trust|Society'),
  },
  LU: {
    code: 'LU',
    language: 'fr',
    people: ['fr', 'de', 'pt_PT'],
    cities: list(
      'Luxembourg:Luxembourg:L-1###|Esch-sur-Alzette:Esch-sur-Alzette:L-4###|Differdange:Esch-sur-Alzette:L-45##|Dudelange:Esch-sur-Alzette:L-34##|Ettelbruck:Diekirch:L-90##|Diekirch:Diekirch:L-92##|Wiltz:Wiltz:L-95##|Echternach:Echternach:L-64##|Grevenmacher:Grevenmacher:L-67##|Remich:Remich:L-55##|Mersch:Mersch:L-75##|Strassen:Luxembourg:L-80##|Bertrange:Luxembourg:L-80##|Hesperange:Luxembourg:L-59##',
    ),
    street: 'fr',
    postCodes: ['L-@###'],
    phones: ['+352 ## ## ##', '+352 26 ## ## ##', '+352 621 ### ###'],
    currency: 'EUR',
    tld: 'lu',
    forms: LU_FORMS,
    nonProfitForms: nonProfit('ASBL|Fondation'),
  },
};

// Jurisdictions: the registries companies are incorporated in, with their share of the demo data.

const j = (country: string, weight: number, extra: Partial<Jurisdiction> = {}): Jurisdiction => ({
  country,
  weight,
  ...extra,
});
const us = (code: string, weight: number, cities: string, zip: string): Jurisdiction =>
  j('US', weight, {
    subdivision: `US-${code}`,
    cities: list(cities),
    postCodes: list(zip).map((p) => `${p}##`),
  });

export const JURISDICTIONS: Jurisdiction[] = [
  us('DE', 7.0, 'Wilmington|Dover|Newark|Middletown|Lewes|Milford|Smyrna', '197|198|199'),
  us(
    'CA',
    4.0,
    'Los Angeles|San Francisco|San Diego|San Jose|Sacramento|Oakland|Fresno|Irvine|Palo Alto|Santa Monica|Pasadena|Long Beach',
    '900|902|913|921|941|943|945|950|958',
  ),
  us(
    'NY',
    3.0,
    'New York|Brooklyn|Buffalo|Rochester|Albany|Syracuse|Yonkers|White Plains|Long Island City',
    '100|101|104|112|122|132|142|146',
  ),
  us(
    'TX',
    2.8,
    'Houston|Dallas|Austin|San Antonio|Fort Worth|El Paso|Plano|Arlington|Irving',
    '750|752|760|770|773|782|787|799',
  ),
  us(
    'FL',
    2.8,
    'Miami|Orlando|Tampa|Jacksonville|Fort Lauderdale|Tallahassee|St. Petersburg|Boca Raton|Naples',
    '321|322|323|328|331|332|334|336|337|341',
  ),
  us('NV', 1.2, 'Las Vegas|Reno|Henderson|Carson City|Sparks', '889|890|891|894|895'),
  us('WY', 0.8, 'Cheyenne|Casper|Sheridan|Jackson|Laramie|Gillette', '820|826|828|830|831'),
  us('IL', 1.0, 'Chicago|Springfield|Naperville|Peoria|Rockford|Evanston|Schaumburg', '600|601|606|611|616|627'),
  us('WA', 0.9, 'Seattle|Spokane|Tacoma|Bellevue|Redmond|Olympia|Vancouver', '980|981|984|985|986|992'),
  us('GA', 0.7, 'Atlanta|Savannah|Augusta|Athens|Macon|Alpharetta', '300|303|306|309|312|314'),
  us('MA', 0.7, 'Boston|Cambridge|Worcester|Springfield|Lowell|Quincy|Waltham', '010|014|016|018|021|022'),
  us('NJ', 0.7, 'Newark|Jersey City|Princeton|Trenton|Hoboken|Paterson|Edison', '070|071|073|075|085|088'),
  us(
    'PA',
    0.7,
    'Philadelphia|Pittsburgh|Harrisburg|Allentown|Erie|Scranton|King of Prussia',
    '150|152|165|171|181|185|191|194',
  ),
  us('OH', 0.5, 'Columbus|Cleveland|Cincinnati|Toledo|Akron|Dayton', '430|432|441|443|452|454|436'),
  us('CO', 0.5, 'Denver|Boulder|Colorado Springs|Aurora|Fort Collins', '800|802|803|805|809'),
  us('NC', 0.5, 'Charlotte|Raleigh|Durham|Greensboro|Winston-Salem', '270|271|276|277|282'),
  us('VA', 0.4, 'Richmond|Virginia Beach|Arlington|Norfolk|Alexandria|Reston', '220|222|223|232|234|235'),
  us('MI', 0.4, 'Detroit|Grand Rapids|Ann Arbor|Lansing|Troy', '480|481|482|489|495'),
  us('AZ', 0.4, 'Phoenix|Tucson|Scottsdale|Mesa|Tempe', '850|852|853|857'),
  us('MN', 0.3, 'Minneapolis|Saint Paul|Rochester|Bloomington|Duluth', '551|554|559|558'),
  j('CA', 1.4, {
    subdivision: 'CA-ON',
    cities: list('Toronto|Ottawa|Mississauga|Hamilton|London|Kitchener|Waterloo|Markham|Brampton|Windsor'),
    postCodes: ['M#? #?#', 'L#? #?#', 'K#? #?#', 'N#? #?#'],
    phones: ['+1 (416) @##-####', '+1 (647) @##-####', '+1 (905) @##-####', '+1 (613) @##-####'],
  }),
  j('CA', 0.7, {
    subdivision: 'CA-BC',
    cities: list('Vancouver|Victoria|Surrey|Burnaby|Kelowna|Richmond|Abbotsford'),
    postCodes: ['V#? #?#'],
    phones: ['+1 (604) @##-####', '+1 (778) @##-####', '+1 (250) @##-####'],
  }),
  j('CA', 0.7, {
    subdivision: 'CA-QC',
    cities: list('Montréal|Québec|Laval|Gatineau|Sherbrooke|Trois-Rivières|Longueuil|Lévis'),
    postCodes: ['H#? #?#', 'G#? #?#', 'J#? #?#'],
    language: 'fr',
    forms: QC_FORMS,
    people: ['fr_CA', 'fr'],
    phones: ['+1 (514) @##-####', '+1 (438) @##-####', '+1 (418) @##-####'],
  }),
  j('CA', 0.4, {
    subdivision: 'CA-AB',
    cities: list('Calgary|Edmonton|Red Deer|Lethbridge|Medicine Hat'),
    postCodes: ['T#? #?#'],
    phones: ['+1 (403) @##-####', '+1 (780) @##-####'],
  }),
  j('CH', 0.7, {
    subdivision: 'CH-ZH',
    cities: list('Zürich|Winterthur|Uster|Dübendorf|Dietikon|Wädenswil'),
    postCodes: ['80##', '81##', '83##', '84##'],
  }),
  j('CH', 0.5, {
    subdivision: 'CH-ZG',
    cities: list('Zug|Baar|Cham|Steinhausen|Rotkreuz'),
    postCodes: ['63##'],
    phones: ['+41 41 ### ## ##'],
  }),
  j('CH', 0.4, {
    subdivision: 'CH-GE',
    cities: list('Genève|Carouge|Vernier|Lancy|Meyrin|Plan-les-Ouates'),
    postCodes: ['12##'],
    language: 'fr',
    forms: CH_FR_FORMS,
    people: ['fr_CH', 'fr'],
    phones: ['+41 22 ### ## ##'],
  }),
  j('CH', 0.2, {
    subdivision: 'CH-BS',
    cities: list('Basel|Riehen|Bettingen'),
    postCodes: ['40##', '41##'],
    phones: ['+41 61 ### ## ##'],
  }),
  j('CH', 0.3, {
    subdivision: 'CH-VD',
    cities: list('Lausanne|Montreux|Nyon|Yverdon-les-Bains|Vevey|Morges|Renens'),
    postCodes: ['10##', '11##', '13##', '14##', '18##'],
    language: 'fr',
    forms: CH_FR_FORMS,
    people: ['fr_CH', 'fr'],
    phones: ['+41 21 ### ## ##'],
  }),
  j('CH', 0.2, {
    subdivision: 'CH-BE',
    cities: list('Bern|Biel/Bienne|Thun|Köniz|Burgdorf|Langenthal'),
    postCodes: ['30##', '31##', '25##', '36##'],
    phones: ['+41 31 ### ## ##'],
  }),
  j('CH', 0.15, {
    subdivision: 'CH-TI',
    cities: list('Lugano|Bellinzona|Locarno|Mendrisio|Chiasso'),
    postCodes: ['65##', '66##', '69##'],
    language: 'it',
    forms: CH_IT_FORMS,
    people: ['it'],
    phones: ['+41 91 ### ## ##'],
  }),
  j('CH', 0.15, {
    subdivision: 'CH-LU',
    cities: list('Luzern|Emmen|Kriens|Horw|Ebikon'),
    postCodes: ['60##', '61##'],
    phones: ['+41 41 ### ## ##'],
  }),
  j('AE', 0.9, { subdivision: 'AE-DU', cities: ['Dubai'], phones: ['+971 4 ### ####', '+971 5# ### ####'] }),
  j('AE', 0.4, {
    subdivision: 'AE-AZ',
    cities: ['Abu Dhabi', 'Al Ain'],
    phones: ['+971 2 ### ####', '+971 5# ### ####'],
  }),
  j('AE', 0.2, { subdivision: 'AE-SH', cities: ['Sharjah'], phones: ['+971 6 ### ####', '+971 5# ### ####'] }),
  j('HK', 1.5),
  j('GB', 10),
  j('DE', 9),
  j('FR', 7),
  j('NL', 3),
  j('ES', 3),
  j('IT', 3),
  j('PL', 2),
  j('SE', 1.5),
  j('NO', 1),
  j('DK', 1),
  j('BE', 0.9),
  j('BE', 0.6, {
    language: 'fr',
    forms: BE_FR_FORMS,
    people: ['fr_BE', 'fr'],
    cities: list(
      'Bruxelles:Région de Bruxelles-Capitale:10#0|Charleroi:Wallonie:6000|Liège:Wallonie:4000|Namur:Wallonie:5000|Mons:Wallonie:7000|La Louvière:Wallonie:7100|Tournai:Wallonie:7500|Verviers:Wallonie:4800|Wavre:Wallonie:1300|Waterloo:Wallonie:1410|Louvain-la-Neuve:Wallonie:1348|Arlon:Wallonie:6700',
    ),
  }),
  j('AT', 1.2),
  j('IE', 1.2),
  j('FI', 0.6),
  j('PT', 0.8),
  j('LU', 0.5),
  j('AU', 2),
  j('NZ', 0.5),
  j('SG', 1.2),
  j('JP', 1.5),
  j('BR', 2),
  j('MX', 1),
  j('IN', 2),
];

/** Fills a pattern: '#' digit, '@' non-zero digit, '?' letter (no I, O, Q, U, as in Canadian and UK codes). */
export function fillPattern(pattern: string, random: Random): string {
  let out = '';
  for (const c of pattern) {
    if (c === '#') out += String.fromCharCode(48 + random.int(10));
    else if (c === '@') out += String.fromCharCode(49 + random.int(9));
    else if (c === '?') out += 'ABCEGHJKLMNPRSTVWXYZ'[random.int(20)];
    else out += c;
  }
  return out.trim();
}

/** Name lists faker lacks (romanised Japanese and Arabic names, common English surnames). */
export const HAND_PEOPLE: Record<string, { first: string[]; last: string[] }> = {
  english: {
    first: [],
    last: list(
      'Smith|Johnson|Williams|Brown|Jones|Miller|Davis|Wilson|Anderson|Taylor|Thomas|Moore|Martin|Jackson|Thompson|White|Harris|Clark|Lewis|Robinson|Walker|Young|Allen|King|Wright|Scott|Hill|Green|Adams|Baker|Nelson|Carter|Mitchell|Roberts|Turner|Phillips|Campbell|Parker|Evans|Edwards|Collins|Stewart|Morris|Murphy|Cook|Rogers|Morgan|Cooper|Peterson|Reed|Bailey|Bell|Kelly|Howard|Ward|Cox|Richardson|Wood|Watson|Brooks|Bennett|Gray|Hughes|Price|Sanders|Myers|Long|Ross|Foster|Powell|Jenkins|Perry|Russell|Sullivan|Fisher|Hamilton|Graham|Wallace|Cole|West|Stone|Hayes|Ford|Gibson|Marshall|Owens|Harrison|Kennedy|Wells|Palmer|Hunt|Knight|Black|Mason|Holmes|Lloyd|Patel|Walsh|Byrne|Ryan|O’Brien|O’Connor|McCarthy|Doyle|Quinn|Gallagher|Fitzgerald|Campbell|MacDonald|Fraser|Robertson|Hughes|Davies|Jenkins|Lloyd|Price|Morgan|Reid|Burns|Gordon|Chapman|Fletcher|Dixon|Hudson|Spencer|Warren|Barker|Lawrence|Gardner|Pearce|Shaw|Webb|Hart|Ellis|Rose|Lane|Porter|Sutton|Mills|Carroll|Duncan|Elliott|Hawkins|Bradley|Franklin|Chambers|Riley|Griffin|Daniels|Ramirez|Garcia|Martinez|Hernandez|Lopez|Gonzalez|Nguyen|Kim|Chen|Singh|Cohen|Schwartz|Murray|Grant|Hoffman|Weaver|Barnes|Fox|Howell|Armstrong|Berry|Watts|Holland|Matthews|Holt|Bishop|Newman|Simmons|Whitaker|Goodwin|Hale|Bryant|Wheeler|Vaughn|Banks|Pierce|Harper|Lambert',
    ),
  },
  ae: {
    first: list(
      'Mohammed|Ahmed|Ali|Omar|Khalid|Rashid|Saeed|Hamdan|Sultan|Abdullah|Yousef|Hassan|Fatima|Aisha|Mariam|Noura|Layla|Hind|Salma|Rania|Priya|Rahul|Arjun|Anil|Sanjay|James|Sarah|David|Maria|Faisal|Tariq|Zayed',
    ),
    last: list(
      'Al Maktoum|Al Nahyan|Al Futtaim|Al Mansoori|Al Hashimi|Al Marri|Al Falasi|Al Shamsi|Al Suwaidi|Al Zaabi|Al Ketbi|Al Qassimi|Al Nuaimi|Al Mazrouei|Al Dhaheri|Al Ghurair|Al Habtoor|Al Rostamani|Al Serkal|Al Tayer|Kanoo|Galadari|Lootah|Juma|Khoury|Haddad|Nair|Menon|Sharma|Patel|Khan|Qureshi',
    ),
  },
  hk: {
    first: list(
      'Wing|Ka Ming|Chi Keung|Siu Ming|Wai Man|Kwok Wah|Man Kit|Ho Yin|Tsz Hin|Hoi Yan|Mei Ling|Suet Ying|Wing Yee|Ka Yan|Pui Shan|Oi Ling|Kelvin|Raymond|Vincent|Eric|Alan|Kenneth|Patrick|Tony|Winnie|Cindy|Joyce|Karen|Elaine|Grace|Michelle|Wei|Jun|Ming|Hui|Xin',
    ),
    last: [],
  },
  jp: {
    first: list(
      'Hiroshi|Takashi|Kenji|Akira|Yuki|Satoshi|Daisuke|Kazuki|Taro|Shota|Ryo|Naoki|Kenta|Makoto|Yuto|Haruto|Sota|Yoko|Keiko|Yumi|Akiko|Naomi|Haruka|Sakura|Aoi|Mei|Yui|Rina|Emi|Mai|Kaori|Nanami',
    ),
    last: list(
      'Sato|Suzuki|Takahashi|Tanaka|Watanabe|Ito|Yamamoto|Nakamura|Kobayashi|Kato|Yoshida|Yamada|Sasaki|Yamaguchi|Matsumoto|Inoue|Kimura|Hayashi|Shimizu|Yamazaki|Mori|Abe|Ikeda|Hashimoto|Yamashita|Ishikawa|Nakajima|Maeda|Fujita|Ogawa|Goto|Okada|Hasegawa|Murakami|Kondo|Ishii|Saito|Sakamoto|Endo|Aoki|Fujii|Nishimura|Fukuda|Ota|Miura|Fujiwara|Okamoto|Matsuda|Nakagawa|Harada',
    ),
  },
  br: {
    first: [],
    last: list(
      'Silva|Santos|Oliveira|Souza|Rodrigues|Ferreira|Alves|Pereira|Lima|Gomes|Costa|Ribeiro|Martins|Carvalho|Almeida|Lopes|Soares|Fernandes|Vieira|Barbosa|Rocha|Dias|Nascimento|Andrade|Moreira|Nunes|Marques|Machado|Mendes|Freitas|Cardoso|Ramos|Gonçalves|Santana|Teixeira|Araújo|Monteiro|Conceição|Cavalcanti|Magalhães',
    ),
  },
};

/** Coined brand-name syllables: thousands of distinct, pronounceable words. */
export const BRAND_START = list(
  'No|Va|Lu|Mi|Ra|Xo|Ze|Qua|Tri|So|Ar|Co|Ve|Io|Ex|Sy|Ge|Bi|Me|Fi|Lo|Dy|Al|Vi|Ne|Te|Pro|Ma|Ta|Se|Ka|Ro|Li|Da|Mo|Cy|Zo|Ori|Evo|Inno|Syn|Neo|Omni|Kine|Velo|Axi|Sola|Terra|Aqua|Nova',
);
export const BRAND_MIDDLE = list('va|te|lo|ri|na|mi|ra|no|vi|co|li|xi|ta|ge|do|sa|ne||||||');
export const BRAND_END = list(
  'tek|tex|lux|ra|via|nex|gen|sys|tron|lia|nova|ium|ix|on|ex|is|al|ora|ity|ic|io|ent|ara|eon|ux|ify|ero|ant|ico|us',
);
