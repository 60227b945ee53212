// Vocabulary of the related records of demo companies: real aircraft and vehicle models, ship
// types with their sizes, flags with their radio prefixes, banks with their BICs, patent and
// design classes, plant species. Lists only; record-factory.ts draws from them.

const list = (text: string): string[] => text.split('|');

// Aircraft -----------------------------------------------------------------------------------------
// engine: ids of the aircraft section's engine_type enum (1 jet, 2 turboprop, 3 piston, 4 turboshaft, 5 electric).

export type AircraftModel = {
  manufacturer: string;
  model: string;
  engine: 1 | 2 | 3 | 4 | 5;
  seats: [number, number];
  /** Serial number pattern ('#' digit). */
  serial: string;
  /** First year built. */
  since: number;
  /** Who flies it: any company, or airlines and aviation companies only. */
  fleet: 'general' | 'business' | 'airline';
};

const aircraft = (
  manufacturer: string,
  model: string,
  engine: AircraftModel['engine'],
  seats: [number, number],
  serial: string,
  since: number,
  fleet: AircraftModel['fleet'],
): AircraftModel => ({ manufacturer, model, engine, seats, serial, since, fleet });

export const AIRCRAFT_MODELS: AircraftModel[] = [
  aircraft('Cessna', '172S Skyhawk', 3, [4, 4], '172S1####', 1998, 'general'),
  aircraft('Cessna', '182T Skylane', 3, [4, 4], '182822##', 2001, 'general'),
  aircraft('Cessna', '208B Grand Caravan', 2, [9, 13], '208B####', 1990, 'general'),
  aircraft('Piper', 'PA-28-181 Archer', 3, [4, 4], '28-8###', 1976, 'general'),
  aircraft('Piper', 'PA-46 M600', 2, [6, 6], '46-98###', 2016, 'business'),
  aircraft('Cirrus', 'SR22', 3, [4, 5], '#####', 2001, 'general'),
  aircraft('Diamond', 'DA42 Twin Star', 3, [4, 4], '42.###', 2004, 'general'),
  aircraft('Diamond', 'DA40 NG', 3, [4, 4], '40.N###', 2010, 'general'),
  aircraft('Beechcraft', 'King Air 350', 2, [8, 11], 'FL-###', 1990, 'business'),
  aircraft('Beechcraft', 'Bonanza G36', 3, [6, 6], 'E-3###', 2006, 'general'),
  aircraft('Pilatus', 'PC-12 NGX', 2, [6, 9], '2###', 2020, 'business'),
  aircraft('Pilatus', 'PC-12/47E', 2, [6, 9], '1###', 2008, 'business'),
  aircraft('Daher', 'TBM 940', 2, [4, 6], '1###', 2019, 'business'),
  aircraft('Cessna', 'Citation CJ3+', 1, [7, 9], '525B0###', 2014, 'business'),
  aircraft('Cessna', 'Citation Latitude', 1, [8, 9], '680A0###', 2015, 'business'),
  aircraft('Embraer', 'Phenom 300E', 1, [7, 10], '505008##', 2018, 'business'),
  aircraft('Bombardier', 'Challenger 350', 1, [9, 10], '20###', 2014, 'business'),
  aircraft('Bombardier', 'Global 6500', 1, [13, 17], '9###', 2019, 'business'),
  aircraft('Gulfstream', 'G650ER', 1, [13, 19], '6###', 2014, 'business'),
  aircraft('Dassault', 'Falcon 2000LXS', 1, [8, 10], '3##', 2014, 'business'),
  aircraft('Robinson', 'R44 Raven II', 3, [4, 4], '1####', 2002, 'general'),
  aircraft('Airbus Helicopters', 'H125', 4, [6, 7], '8###', 2015, 'business'),
  aircraft('Airbus Helicopters', 'H145', 4, [8, 10], '20###', 2014, 'business'),
  aircraft('Bell', '407GXi', 4, [6, 7], '54###', 2018, 'business'),
  aircraft('Leonardo', 'AW169', 4, [8, 10], '69###', 2015, 'business'),
  aircraft('Pipistrel', 'Velis Electro', 5, [2, 2], '###VSW128', 2020, 'general'),
  aircraft('Airbus', 'A320-200', 1, [150, 180], '#####', 1988, 'airline'),
  aircraft('Airbus', 'A320neo', 1, [165, 186], '1####', 2016, 'airline'),
  aircraft('Airbus', 'A321neo', 1, [180, 220], '1####', 2017, 'airline'),
  aircraft('Airbus', 'A330-300', 1, [250, 300], '1###', 1994, 'airline'),
  aircraft('Airbus', 'A350-900', 1, [300, 325], '###', 2015, 'airline'),
  aircraft('Boeing', '737-800', 1, [162, 189], '3####', 1998, 'airline'),
  aircraft('Boeing', '737 MAX 8', 1, [162, 189], '6####', 2017, 'airline'),
  aircraft('Boeing', '787-9 Dreamliner', 1, [240, 296], '6####', 2014, 'airline'),
  aircraft('Boeing', '777-300ER', 1, [300, 396], '4####', 2004, 'airline'),
  aircraft('Embraer', 'E175', 1, [76, 88], '17000###', 2005, 'airline'),
  aircraft('Embraer', 'E195-E2', 1, [120, 146], '19020###', 2019, 'airline'),
  aircraft('Bombardier', 'CRJ900', 1, [76, 90], '15###', 2003, 'airline'),
  aircraft('ATR', '72-600', 2, [68, 78], '1###', 2011, 'airline'),
  aircraft('De Havilland Canada', 'Dash 8-400', 2, [68, 90], '4###', 2000, 'airline'),
];

/**
 * National registration marks: a prefix, then letters or digits ('N' marks are digits with up to
 * two trailing letters). Countries missing here use their ISO code as prefix.
 */
export const AIRCRAFT_PREFIXES: Record<string, string> = {
  US: 'N',
  CA: 'C-',
  GB: 'G-',
  DE: 'D-',
  FR: 'F-',
  CH: 'HB-',
  AT: 'OE-',
  NL: 'PH-',
  BE: 'OO-',
  ES: 'EC-',
  IT: 'I-',
  PL: 'SP-',
  SE: 'SE-',
  NO: 'LN-',
  DK: 'OY-',
  FI: 'OH-',
  IE: 'EI-',
  PT: 'CS-',
  LU: 'LX-',
  AU: 'VH-',
  NZ: 'ZK-',
  SG: '9V-',
  JP: 'JA',
  BR: 'PR-',
  MX: 'XA-',
  IN: 'VT-',
  AE: 'A6-',
  HK: 'B-',
};

// Vehicles -----------------------------------------------------------------------------------------
// type: vehicle_type enum ids (1 car, 2 van, 3 truck, 4 bus, 5 trailer); fuels: fuel_type enum ids
// (1 petrol, 2 diesel, 3 electric, 4 hybrid, 5 natural gas); wmi: the maker's world manufacturer identifier.

export type VehicleModel = { make: string; model: string; type: 1 | 2 | 3 | 4 | 5; fuels: number[]; wmi: string };

const vehicle = (make: string, model: string, type: VehicleModel['type'], fuels: number[], wmi: string) => ({
  make,
  model,
  type,
  fuels,
  wmi,
});

export const VEHICLE_MODELS: VehicleModel[] = [
  vehicle('Volkswagen', 'Golf', 1, [1, 2, 4], 'WVW'),
  vehicle('Volkswagen', 'Passat Variant', 1, [1, 2, 4], 'WVW'),
  vehicle('Volkswagen', 'ID.4', 1, [3], 'WVG'),
  vehicle('Volkswagen', 'Transporter', 2, [2, 4], 'WV1'),
  vehicle('Volkswagen', 'Crafter', 2, [2], 'WV1'),
  vehicle('Mercedes-Benz', 'C-Class', 1, [1, 2, 4], 'W1K'),
  vehicle('Mercedes-Benz', 'E-Class', 1, [1, 2, 4], 'W1K'),
  vehicle('Mercedes-Benz', 'Sprinter', 2, [2, 3], 'W1V'),
  vehicle('Mercedes-Benz', 'Vito', 2, [2, 3], 'W1V'),
  vehicle('Mercedes-Benz', 'Actros', 3, [2], 'WDB'),
  vehicle('Mercedes-Benz', 'Citaro', 4, [2, 3, 4], 'WEB'),
  vehicle('BMW', '3 Series', 1, [1, 2, 4], 'WBA'),
  vehicle('BMW', '5 Series', 1, [1, 2, 4], 'WBA'),
  vehicle('BMW', 'i4', 1, [3], 'WBY'),
  vehicle('Audi', 'A4 Avant', 1, [1, 2], 'WAU'),
  vehicle('Audi', 'A6', 1, [1, 2, 4], 'WAU'),
  vehicle('Audi', 'Q4 e-tron', 1, [3], 'WAU'),
  vehicle('Škoda', 'Octavia', 1, [1, 2, 5], 'TMB'),
  vehicle('Škoda', 'Superb', 1, [1, 2, 4], 'TMB'),
  vehicle('Opel', 'Astra', 1, [1, 2], 'W0L'),
  vehicle('Opel', 'Vivaro', 2, [2, 3], 'W0V'),
  vehicle('Ford', 'Focus', 1, [1, 2], 'WF0'),
  vehicle('Ford', 'Transit', 2, [2, 3], 'WF0'),
  vehicle('Ford', 'Transit Custom', 2, [2, 4], 'WF0'),
  vehicle('Ford', 'F-150', 3, [1, 4, 3], '1FT'),
  vehicle('Ford', 'Explorer', 1, [1, 4], '1FM'),
  vehicle('Chevrolet', 'Silverado 1500', 3, [1, 2], '1GC'),
  vehicle('Chevrolet', 'Express 2500', 2, [1], '1GC'),
  vehicle('RAM', '1500', 3, [1], '1C6'),
  vehicle('Tesla', 'Model 3', 1, [3], '5YJ'),
  vehicle('Tesla', 'Model Y', 1, [3], '7SA'),
  vehicle('Toyota', 'Corolla', 1, [1, 4], 'JTD'),
  vehicle('Toyota', 'RAV4', 1, [1, 4], 'JTM'),
  vehicle('Toyota', 'Hilux', 3, [2], 'AHT'),
  vehicle('Toyota', 'Hiace', 2, [2], 'JTF'),
  vehicle('Honda', 'Civic', 1, [1, 4], 'JHM'),
  vehicle('Nissan', 'Leaf', 1, [3], 'SJN'),
  vehicle('Nissan', 'Qashqai', 1, [1, 4], 'SJN'),
  vehicle('Hyundai', 'Tucson', 1, [1, 4], 'KMH'),
  vehicle('Kia', 'Sportage', 1, [1, 2, 4], 'KNA'),
  vehicle('Renault', 'Clio', 1, [1, 4], 'VF1'),
  vehicle('Renault', 'Master', 2, [2, 3], 'VF1'),
  vehicle('Renault', 'Kangoo', 2, [2, 3], 'VF1'),
  vehicle('Peugeot', '308', 1, [1, 2, 4], 'VF3'),
  vehicle('Peugeot', 'Boxer', 2, [2], 'VF3'),
  vehicle('Citroën', 'Berlingo', 2, [2, 3], 'VF7'),
  vehicle('Fiat', '500', 1, [1, 3], 'ZFA'),
  vehicle('Fiat', 'Ducato', 2, [2, 5], 'ZFA'),
  vehicle('Iveco', 'Daily', 2, [2, 5], 'ZCF'),
  vehicle('Iveco', 'S-Way', 3, [2, 5], 'WJM'),
  vehicle('Volvo', 'XC60', 1, [4, 2], 'YV1'),
  vehicle('Volvo', 'FH16', 3, [2, 5], 'YV2'),
  vehicle('Volvo', '9700', 4, [2], 'YV3'),
  vehicle('Scania', 'R 450', 3, [2, 5], 'YS2'),
  vehicle('Scania', 'Citywide', 4, [2, 5, 3], 'YS4'),
  vehicle('MAN', 'TGX', 3, [2], 'WMA'),
  vehicle('MAN', "Lion's City", 4, [2, 3], 'WMA'),
  vehicle('DAF', 'XF', 3, [2], 'XLR'),
  vehicle('Freightliner', 'Cascadia', 3, [2], '3AK'),
  vehicle('Kenworth', 'T680', 3, [2], '1XK'),
  vehicle('Peterbilt', '579', 3, [2], '1XP'),
  vehicle('Isuzu', 'N-Series', 3, [2], 'JAL'),
  vehicle('Schmitz Cargobull', 'S.KO Cool', 5, [], 'WSM'),
  vehicle('Krone', 'Profi Liner', 5, [], 'WKE'),
  vehicle('Kögel', 'Cargo', 5, [], 'WK0'),
  vehicle('Great Dane', 'Champion', 5, [], '1GR'),
  vehicle('Wabash', 'DuraPlate', 5, [], '1JJ'),
];

// Vessels ------------------------------------------------------------------------------------------
// type: vessel_type enum ids (1 bulk carrier … 7 tug), gross tonnage range, deadweight per gross ton.

export const VESSEL_TYPES: { type: number; weight: number; gt: [number, number]; dwtPerGt: number }[] = [
  { type: 1, weight: 14, gt: [15_000, 95_000], dwtPerGt: 1.8 },
  { type: 2, weight: 10, gt: [9_000, 160_000], dwtPerGt: 1.25 },
  { type: 3, weight: 14, gt: [3_000, 160_000], dwtPerGt: 1.85 },
  { type: 4, weight: 22, gt: [1_000, 15_000], dwtPerGt: 1.5 },
  { type: 5, weight: 6, gt: [5_000, 60_000], dwtPerGt: 0.4 },
  { type: 6, weight: 20, gt: [60, 3_000], dwtPerGt: 0.6 },
  { type: 7, weight: 14, gt: [150, 800], dwtPerGt: 0.5 },
];

/** A flag: its ISO country code, the MMSI maritime identification digits and the call-sign prefix. */
export type Flag = { country: string; mids: number[]; callSign: string };

const flag = (country: string, mids: number[], callSign: string): Flag => ({ country, mids, callSign });

/** Open registers most ocean-going tonnage flies. */
export const FLAGS_OF_CONVENIENCE: Flag[] = [
  flag('PA', [351, 352, 353, 354, 355, 356, 357, 370, 371, 372, 373], '3E'),
  flag('LR', [636, 637], 'A8'),
  flag('MH', [538], 'V7'),
  flag('MT', [215, 229, 248, 249, 256], '9H'),
  flag('BS', [308, 309, 311], 'C6'),
  flag('CY', [209, 210, 212], '5B'),
  flag('SG', [563, 564, 565, 566], '9V'),
  flag('HK', [477], 'VR'),
];

export const NATIONAL_FLAGS: Record<string, Flag> = Object.fromEntries(
  [
    flag('US', [366, 367, 368, 369], 'WD'),
    flag('CA', [316], 'CF'),
    flag('GB', [232, 233, 234, 235], 'MA'),
    flag('DE', [211, 218], 'DA'),
    flag('FR', [226, 227, 228], 'FM'),
    flag('NL', [244, 245, 246], 'PB'),
    flag('BE', [205], 'OR'),
    flag('ES', [224, 225], 'EA'),
    flag('IT', [247], 'IB'),
    flag('PL', [261], 'SP'),
    flag('SE', [265, 266], 'SB'),
    flag('NO', [257, 258, 259], 'LA'),
    flag('DK', [219, 220], 'OX'),
    flag('FI', [230], 'OJ'),
    flag('IE', [250], 'EI'),
    flag('PT', [263], 'CQ'),
    flag('LU', [253], 'LX'),
    flag('CH', [269], 'HB'),
    flag('AT', [203], 'OE'),
    flag('AU', [503], 'VJ'),
    flag('NZ', [512], 'ZM'),
    flag('SG', [563, 564, 565, 566], '9V'),
    flag('HK', [477], 'VR'),
    flag('JP', [431, 432], '7J'),
    flag('BR', [710], 'PP'),
    flag('MX', [345], 'XC'),
    flag('IN', [419], 'AV'),
    flag('AE', [470], 'A6'),
  ].map((f) => [f.country, f]),
);

export const VESSEL_WORDS = list(
  'Star|Spirit|Pioneer|Venture|Trader|Express|Fortune|Harmony|Voyager|Endeavour|Horizon|Navigator|Explorer|Glory|Pride|Ocean|Wave|Breeze|Aurora|Meridian|Atlas|Triton|Neptune|Polaris|Dawn|Carrier|Challenger|Enterprise|Victory|Crest',
);

// Banks --------------------------------------------------------------------------------------------

/** Banks companies of a country keep accounts with: name and BIC. */
export const BANKS: Record<string, [string, string][]> = {
  US: [
    ['JPMorgan Chase Bank', 'CHASUS33'],
    ['Bank of America', 'BOFAUS3N'],
    ['Wells Fargo Bank', 'WFBIUS6S'],
    ['Citibank', 'CITIUS33'],
    ['U.S. Bank', 'USBKUS44'],
    ['PNC Bank', 'PNCCUS33'],
    ['Truist Bank', 'BRBTUS33'],
  ],
  CA: [
    ['Royal Bank of Canada', 'ROYCCAT2'],
    ['TD Canada Trust', 'TDOMCATTTOR'],
    ['Scotiabank', 'NOSCCATT'],
    ['BMO Bank of Montreal', 'BOFMCAM2'],
    ['Desjardins', 'CCDQCAMM'],
  ],
  GB: [
    ['Barclays Bank', 'BARCGB22'],
    ['HSBC UK Bank', 'HBUKGB4B'],
    ['Lloyds Bank', 'LOYDGB2L'],
    ['NatWest', 'NWBKGB2L'],
    ['Santander UK', 'ABBYGB2L'],
  ],
  DE: [
    ['Deutsche Bank', 'DEUTDEFF'],
    ['Commerzbank', 'COBADEFF'],
    ['DZ Bank', 'GENODEFF'],
    ['UniCredit Bank', 'HYVEDEMM'],
    ['Sparkasse KölnBonn', 'COLSDE33'],
    ['Berliner Sparkasse', 'BELADEBE'],
    ['Postbank', 'PBNKDEFF'],
  ],
  AT: [
    ['Erste Bank', 'GIBAATWW'],
    ['Raiffeisen Bank International', 'RZBAATWW'],
    ['Bank Austria', 'BKAUATWW'],
    ['BAWAG', 'BAWAATWW'],
  ],
  CH: [
    ['UBS Switzerland', 'UBSWCHZH80A'],
    ['Zürcher Kantonalbank', 'ZKBKCHZZ80A'],
    ['PostFinance', 'POFICHBEXXX'],
    ['Raiffeisen Schweiz', 'RAIFCH22'],
  ],
  FR: [
    ['BNP Paribas', 'BNPAFRPP'],
    ['Société Générale', 'SOGEFRPP'],
    ['Crédit Agricole', 'AGRIFRPP'],
    ['Crédit Mutuel', 'CMCIFRPP'],
    ['LCL', 'CRLYFRPP'],
  ],
  BE: [
    ['KBC Bank', 'KREDBEBB'],
    ['BNP Paribas Fortis', 'GEBABEBB'],
    ['Belfius', 'GKCCBEBB'],
    ['ING Belgium', 'BBRUBEBB'],
  ],
  NL: [
    ['ING Bank', 'INGBNL2A'],
    ['Rabobank', 'RABONL2U'],
    ['ABN AMRO', 'ABNANL2A'],
    ['de Volksbank', 'SNSBNL2A'],
  ],
  LU: [
    ['Banque et Caisse d’Épargne de l’État', 'BCEELULL'],
    ['BGL BNP Paribas', 'BGLLLULL'],
    ['Banque Internationale à Luxembourg', 'BILLLULL'],
  ],
  ES: [
    ['Banco Santander', 'BSCHESMM'],
    ['BBVA', 'BBVAESMM'],
    ['CaixaBank', 'CAIXESBB'],
    ['Banco Sabadell', 'BSABESBB'],
  ],
  IT: [
    ['Intesa Sanpaolo', 'BCITITMM'],
    ['UniCredit', 'UNCRITMM'],
    ['Banco BPM', 'BAPPIT21'],
    ['BPER Banca', 'BPMOIT22'],
  ],
  PT: [
    ['Caixa Geral de Depósitos', 'CGDIPTPL'],
    ['Millennium bcp', 'BCOMPTPL'],
    ['Novo Banco', 'BESCPTPL'],
  ],
  PL: [
    ['PKO Bank Polski', 'BPKOPLPW'],
    ['Bank Pekao', 'PKOPPLPW'],
    ['mBank', 'BREXPLPW'],
    ['Santander Bank Polska', 'WBKPPLPP'],
  ],
  SE: [
    ['Nordea', 'NDEASESS'],
    ['SEB', 'ESSESESS'],
    ['Handelsbanken', 'HANDSESS'],
    ['Swedbank', 'SWEDSESS'],
  ],
  NO: [
    ['DNB', 'DNBANOKK'],
    ['SpareBank 1', 'SPRONO22'],
    ['Nordea Norge', 'NDEANOKK'],
  ],
  DK: [
    ['Danske Bank', 'DABADKKK'],
    ['Nordea Danmark', 'NDEADKKK'],
    ['Jyske Bank', 'JYBADKKK'],
  ],
  FI: [
    ['OP Financial Group', 'OKOYFIHH'],
    ['Nordea Finland', 'NDEAFIHH'],
    ['Danske Bank Finland', 'DABAFIHH'],
  ],
  IE: [
    ['AIB', 'AIBKIE2D'],
    ['Bank of Ireland', 'BOFIIE2D'],
    ['PTSB', 'IPBSIE2D'],
  ],
  AU: [
    ['Commonwealth Bank', 'CTBAAU2S'],
    ['Westpac', 'WPACAU2S'],
    ['ANZ', 'ANZBAU3M'],
    ['NAB', 'NATAAU33'],
  ],
  NZ: [
    ['ANZ Bank New Zealand', 'ANZBNZ22'],
    ['ASB Bank', 'ASBBNZ2A'],
    ['BNZ', 'BKNZNZ22'],
  ],
  SG: [
    ['DBS Bank', 'DBSSSGSG'],
    ['OCBC Bank', 'OCBCSGSG'],
    ['UOB', 'UOVBSGSG'],
  ],
  HK: [
    ['HSBC Hong Kong', 'HSBCHKHH'],
    ['Bank of China (Hong Kong)', 'BKCHHKHH'],
    ['Hang Seng Bank', 'HASEHKHH'],
  ],
  JP: [
    ['MUFG Bank', 'BOTKJPJT'],
    ['Sumitomo Mitsui Banking Corporation', 'SMBCJPJT'],
    ['Mizuho Bank', 'MHCBJPJT'],
  ],
  BR: [
    ['Itaú Unibanco', 'ITAUBRSP'],
    ['Banco do Brasil', 'BRASBRRJ'],
    ['Bradesco', 'BBDEBRSP'],
  ],
  MX: [
    ['BBVA México', 'BCMRMXMM'],
    ['Banorte', 'MENOMXMT'],
    ['Santander México', 'BMSXMXMM'],
  ],
  IN: [
    ['State Bank of India', 'SBININBB'],
    ['HDFC Bank', 'HDFCINBB'],
    ['ICICI Bank', 'ICICINBB'],
  ],
  AE: [
    ['Emirates NBD', 'EBILAEAD'],
    ['First Abu Dhabi Bank', 'NBADAEAA'],
    ['Mashreq Bank', 'BOMLAEAD'],
  ],
};

// Intellectual property -----------------------------------------------------------------------------

/** IPC subclasses by industry group, with what inventions there are about. */
export const IPC_SUBCLASSES: Record<string, [string, string[]][]> = {
  software: [
    ['G06F', ['processing data records', 'managing distributed storage', 'scheduling compute tasks']],
    ['G06Q', ['processing payments', 'planning deliveries', 'matching supply and demand']],
    ['H04L', ['authenticating network devices', 'encrypting data in transit', 'routing network traffic']],
    ['G06N', ['training neural networks', 'classifying images', 'predicting equipment failures']],
  ],
  telecom: [
    ['H04W', ['allocating radio resources', 'handing over mobile terminals', 'beam management']],
    ['H04B', ['optical signal transmission', 'reducing interference']],
  ],
  manufacturing: [
    ['B23K', ['laser welding of thin sheets', 'friction stir welding']],
    ['F16H', ['a planetary gear transmission', 'a belt tensioner']],
    ['B29C', ['injection moulding', 'additive manufacturing of polymer parts']],
    ['H01M', ['a battery cell housing', 'thermal management of battery packs']],
    ['B65G', ['conveying piece goods', 'automated storage of containers']],
    ['F16K', ['a control valve', 'a check valve with low pressure loss']],
  ],
  research: [
    ['A61K', ['a pharmaceutical composition', 'an oral dosage form']],
    ['C07D', ['heterocyclic compounds', 'kinase inhibitors']],
    ['C12N', ['gene editing of plant cells', 'producing recombinant proteins']],
    ['G01N', ['detecting biomarkers', 'analysing blood samples']],
  ],
  cars: [
    ['B60L', ['charging electric vehicles', 'regenerative braking']],
    ['B60W', ['driver assistance', 'controlling a hybrid drive train']],
  ],
  utilities: [
    ['H02J', ['balancing grid load', 'storing energy from photovoltaic systems']],
    ['F03D', ['a wind turbine blade', 'controlling wind turbine pitch']],
  ],
  food: [
    ['A23L', ['a plant-based protein food', 'reducing sugar in beverages']],
    ['C12C', ['brewing low-alcohol beer']],
  ],
  building: [
    ['E04B', ['a prefabricated wall element', 'insulating flat roofs']],
    ['E04F', ['a raised floor system']],
  ],
  mining: [['E21B', ['drilling boreholes', 'completing wells']]],
  default: [
    ['G01B', ['measuring surface profiles']],
    ['B65D', ['a recyclable packaging container', 'a tamper-evident closure']],
    ['A47L', ['cleaning floors']],
    ['G06K', ['reading machine-readable labels']],
  ],
};

/** Nice classes (1–45) a company of an industry group files its marks in. */
export const NICE_CLASSES: Record<string, number[]> = {
  software: [9, 35, 38, 42],
  telecom: [9, 38, 42],
  media: [9, 16, 35, 38, 41],
  food: [29, 30, 31, 32, 33],
  grocery: [29, 30, 32, 35],
  restaurants: [30, 32, 43],
  hotels: [39, 43, 44],
  retail: [3, 18, 25, 35],
  personal: [3, 44],
  manufacturing: [6, 7, 9, 11, 12, 17, 20],
  cars: [12, 37],
  research: [1, 5, 10, 42],
  consulting: [35, 36, 41, 42],
  leisure: [28, 41],
  education: [16, 41],
  default: [35, 37, 39, 42],
};

/** Locarno classes and what a design in them is of. */
export const LOCARNO_CLASSES: [string, string[]][] = [
  ['06-01', ['Chair', 'Office chair', 'Stool']],
  ['06-03', ['Table', 'Desk']],
  ['07-02', ['Cooking pot', 'Frying pan']],
  ['09-01', ['Bottle', 'Drinks bottle']],
  ['09-03', ['Packaging box', 'Folding carton']],
  ['10-02', ['Wristwatch']],
  ['11-01', ['Ring', 'Pendant']],
  ['12-08', ['Car body', 'Vehicle front grille']],
  ['14-03', ['Mobile phone', 'Router']],
  ['14-04', ['Graphical user interface', 'Icon']],
  ['15-99', ['Machine housing', 'Control cabinet']],
  ['21-01', ['Toy figure', 'Building block']],
  ['23-04', ['Air purifier', 'Fan heater']],
  ['25-01', ['Facade panel', 'Roof tile']],
  ['26-05', ['Lamp', 'Ceiling light']],
  ['28-03', ['Electric toothbrush', 'Hair dryer']],
  ['02-04', ['Shoe', 'Sandal']],
  ['03-01', ['Handbag', 'Backpack']],
  ['08-05', ['Screwdriver', 'Pliers']],
  ['32-00', ['Logo', 'Ornament']],
];

/** Plant species under variety protection: botanical name and the words of its variety names. */
export const PLANT_SPECIES: [string, string[]][] = [
  ['Triticum aestivum L.', list('Emerick|Julius|Reform|Patras|Informer|Apostel|Ponticus|Chevignon')],
  ['Hordeum vulgare L.', list('Laureate|Planet|KWS Cassia|Avalon|Sensas|Explorer')],
  ['Zea mays L.', list('Amaroc|Kashmir|Figaro|Sunshine|Benedictio|Cerberus')],
  ['Brassica napus L.', list('Ambassador|Aurelia|Crocodile|Daktari|Picard')],
  ['Solanum tuberosum L.', list('Annabelle|Gala|Jelly|Lady Claire|Belana|Colomba')],
  ['Solanum lycopersicum L.', list('Sweet Pearl|Red Baron|Cherry Belle|Sunstream|Romanella')],
  ['Malus domestica Borkh.', list('Red Jonaprince|Wellant|Nicoter|Cosmic Crisp|Inored|SweeTango')],
  ['Fragaria × ananassa Duch.', list('Malling Centenary|Favori|Sonata|Sweet Eve|Lusa')],
  ['Vitis vinifera L.', list('Souvignier Gris|Muscaris|Cabernet Blanc|Solaris|Regent')],
  ['Rosa L.', list('Red Eden|Lovely Meilland|Sweet Avalanche|Crimson Kiss|Ivory Piano')],
  ['Lactuca sativa L.', list('Lollo Bionda|Green Star|Salanova|Crispino|Batavia Gold')],
  ['Chrysanthemum L.', list('Baltica|Zembla|Anastasia|Pompon Yellow|Bigoudi')],
  ['Pelargonium L’Hér.', list('Calliope|Savannah|Tango Red|Moonlight|Flower Fairy')],
];
