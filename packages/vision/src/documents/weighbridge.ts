/**
 * Weighbridge tickets: vendor-specific prints with no national standard (sa-documents §7), so fields
 * are found by their labels in OCR text. Masses are checked: gross − tare = net within the
 * bridge's resolution (WEIGHBRIDGE_MASS_TOLERANCE_KG).
 */
import { normalisePlate } from '@boomgate/contracts/plates';

import { WEIGHBRIDGE_MASS_TOLERANCE_KG } from './mass-tolerance';

export type WeighbridgeTicket = {
  ticketNumber: string | null;
  site: string | null;
  vehicleReg: string | null;
  trailerRegs: string[];
  product: string | null;
  customer: string | null;
  transporter: string | null;
  supplier: string | null;
  tareWeight: number | null;
  grossWeight: number | null;
  netWeight: number | null;
  tareDateTime: string | null;
  grossDateTime: string | null;
  sealNumbers: string[];
  tareOperator: string | null;
  grossOperator: string | null;
  /** `ok`: |gross − tare − net| ≤ 20 kg; `derived`: net computed from gross − tare. */
  massCheck: 'ok' | 'mismatch' | 'derived' | 'incomplete';
  /** An operator printed without saying which weighing. */
  operator: string | null;
  /** A ticket without a ticket number is a partial extraction (spec §5). */
  isPartial: boolean;
};

type Key =
  | 'ticketNumber'
  | 'site'
  | 'vehicleReg'
  | 'trailer'
  | 'product'
  | 'customer'
  | 'transporter'
  | 'supplier'
  | 'tare'
  | 'gross'
  | 'net'
  | 'tareDateTime'
  | 'grossDateTime'
  | 'seal'
  | 'tareOperator'
  | 'grossOperator'
  | 'operator'
  | 'first'
  | 'second'
  | 'firstDateTime'
  | 'secondDateTime'
  | 'date';

/** Labels, most specific first. Matched case-insensitively at word boundaries. */
const LABELS: Array<[Key, RegExp]> = [
  ['tareOperator', /\b(?:tare|1st|first)\s*(?:weigh(?:t|ing)?\s*)?operator\b/i],
  ['grossOperator', /\b(?:gross|2nd|second)\s*(?:weigh(?:t|ing)?\s*)?operator\b/i],
  ['tareDateTime', /\btare\s*(?:date\s*(?:\/|&|and)?\s*time|date|time)\b/i],
  ['grossDateTime', /\bgross\s*(?:date\s*(?:\/|&|and)?\s*time|date|time)\b/i],
  [
    'firstDateTime',
    /\b(?:(?:1st|first)\s*weigh(?:t|ing)?\s*(?:date\s*(?:\/|&|and)?\s*time|date|time)|(?:date\s*(?:\/\s*time)?|time)\s*in)\b/i,
  ],
  [
    'secondDateTime',
    /\b(?:(?:2nd|second)\s*weigh(?:t|ing)?\s*(?:date\s*(?:\/|&|and)?\s*time|date|time)|(?:date\s*(?:\/\s*time)?|time)\s*out)\b/i,
  ],
  [
    'ticketNumber',
    /\b(?:weighbridge\s*)?(?:ticket|docket|weigh\s*slip|slip|transaction)\s*(?:no\.?|number|nr\.?|#)?(?=[\s:#.]|$)/i,
  ],
  [
    'trailer',
    /\btrailers?\s*(?:\d|one|two)?\s*(?:reg(?:istration)?s?\.?)?\s*(?:no'?s?\.?|numbers?)?(?=[\s:#.]|$)/i,
  ],
  [
    'vehicleReg',
    /\b(?:vehicle|truck|horse|veh\.?)\s*(?:reg(?:istration)?\.?)?\s*(?:no\.?|number)?(?=[\s:#.]|$)|\breg(?:istration)?\s*(?:no\.?|number)(?=[\s:#.]|$)/i,
  ],
  ['product', /\b(?:product|commodity|material)(?=[\s:#.]|$)/i],
  ['customer', /\b(?:customer|consignee|client)(?=[\s:#.]|$)/i],
  ['transporter', /\b(?:transporter|haulier|hauler|carrier|transport\s*company)(?=[\s:#.]|$)/i],
  ['supplier', /\b(?:supplier|consignor)(?=[\s:#.]|$)/i],
  ['site', /\b(?:site|mine|plant|weighbridge\s*site|location)(?=[\s:#.]|$)/i],
  ['tare', /\btare\s*(?:mass|weight)?\s*(?:\(kg\))?(?=[\s:#.]|$)/i],
  ['gross', /\bgross\s*(?:mass|weight)?\s*(?:\(kg\))?(?=[\s:#.]|$)/i],
  ['first', /\b(?:1st|first)\s*(?:weight|mass|weighing)\s*(?:\(kg\))?(?=[\s:#.]|$)/i],
  ['second', /\b(?:2nd|second)\s*(?:weight|mass|weighing)\s*(?:\(kg\))?(?=[\s:#.]|$)/i],
  ['net', /\b(?:nett?|payload)\s*(?:mass|weight)?\s*(?:\(kg\))?(?=[\s:#.]|$)/i],
  ['seal', /\bseals?\s*(?:no'?s?\.?|numbers?|nrs?\.?)?(?=[\s:#.]|$)/i],
  ['operator', /\b(?:operator|weighmaster|clerk)(?=[\s:#.]|$)/i],
  ['date', /\bdate(?:\s*\/?\s*time)?(?=[\s:#.]|$)/i],
];

type Segment = { key: Key; value: string };

function segmentsOf(line: string): Segment[] {
  const hits: Array<{ key: Key; start: number; end: number }> = [];
  for (const [key, re] of LABELS) {
    const global = new RegExp(re.source, 'gi');
    for (let m = global.exec(line); m; m = global.exec(line)) {
      const start = m.index;
      const end = start + m[0].length;
      if (m[0].length === 0) {
        global.lastIndex++;
        continue;
      }
      if (hits.some((h) => start < h.end && end > h.start)) continue;
      // Inside a line, a word like "mine" or "date" is a label only when a colon follows it.
      if (start > 2 && !/^\s*[:#]/.test(line.slice(end))) continue;
      hits.push({ key, start, end });
    }
  }
  hits.sort((a, b) => a.start - b.start);
  return hits.map((h, i) => ({
    key: h.key,
    value: line
      .slice(h.end, hits[i + 1]?.start ?? line.length)
      .replace(/^[\s:#.\-=]+/, '')
      .trim(),
  }));
}

/** `15 240 kg`, `15,240`, `15240`, `15.24 t` → kilograms. */
export function parseMassKg(value: string): number | null {
  const tonnes = /(\d+[.,]\d+)\s*t(?:on(?:ne)?s?)?\b/i.exec(value);
  if (tonnes) return Math.round(Number(tonnes[1]!.replace(',', '.')) * 1000);
  const m = /(\d{1,3}(?:[ ,]\d{3})+|\d+)(?:\.0+)?\s*(?:kg)?/i.exec(value);
  if (!m) return null;
  return Number(m[1]!.replace(/[ ,]/g, ''));
}

/** First date-time in the text, as local ISO `YYYY-MM-DDTHH:MM[:SS]` (or a date alone). */
export function parseDateTime(value: string): string | null {
  const iso = /(\d{4})[-/.](\d{2})[-/.](\d{2})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?/.exec(value);
  const dmy = /(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:[ ,]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?/.exec(
    value,
  );
  let y: string,
    mo: string,
    d: string,
    h: string | undefined,
    mi: string | undefined,
    s: string | undefined;
  if (iso)
    [, y, mo, d, h, mi, s] = iso as unknown as string[] as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
  else if (dmy) {
    [, d, mo, y, h, mi, s] = dmy as unknown as string[] as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
  } else return null;
  const date = `${y}-${mo.padStart(2, '0')}-${d.padStart(2, '0')}`;
  if (!h || !mi) return date;
  return `${date}T${h.padStart(2, '0')}:${mi}${s ? `:${s}` : ''}`;
}

function cleanValue(value: string): string | null {
  const v = value
    .replace(/\s{2,}/g, ' ')
    .replace(/[|_]+$/g, '')
    .trim();
  return v.length ? v : null;
}

function plateOf(value: string): string | null {
  const token = value.split(/\s{2,}|,|;|\//)[0] ?? '';
  const plate = normalisePlate(token);
  return plate.length >= 4 && plate.length <= 10 ? plate : null;
}

export function extractWeighbridgeTicket(text: string): WeighbridgeTicket {
  const t: WeighbridgeTicket = {
    ticketNumber: null,
    site: null,
    vehicleReg: null,
    trailerRegs: [],
    product: null,
    customer: null,
    transporter: null,
    supplier: null,
    tareWeight: null,
    grossWeight: null,
    netWeight: null,
    tareDateTime: null,
    grossDateTime: null,
    sealNumbers: [],
    tareOperator: null,
    grossOperator: null,
    massCheck: 'incomplete',
    operator: null,
    isPartial: true,
  };
  // "1st/2nd weight" and "time in/out" tickets: the lighter weighing is the tare.
  const weighings: {
    first: number | null;
    second: number | null;
    firstAt: string | null;
    secondAt: string | null;
  } = {
    first: null,
    second: null,
    firstAt: null,
    secondAt: null,
  };
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  let lastMass: 'tare' | 'gross' | 'first' | 'second' | null = null;
  for (const line of lines) {
    for (const { key, value } of segmentsOf(line)) {
      switch (key) {
        case 'ticketNumber': {
          const m = /[A-Z0-9][A-Z0-9\-/]*\d[A-Z0-9\-/]*/i.exec(value);
          if (m && !t.ticketNumber) t.ticketNumber = m[0];
          break;
        }
        case 'vehicleReg':
          t.vehicleReg ??= plateOf(value);
          break;
        case 'trailer': {
          for (const part of value.split(/,|;|\/|\s{2,}|\band\b/)) {
            const plate = plateOf(part);
            if (plate && !t.trailerRegs.includes(plate)) t.trailerRegs.push(plate);
          }
          break;
        }
        case 'product':
          t.product ??= cleanValue(value);
          break;
        case 'customer':
          t.customer ??= cleanValue(value);
          break;
        case 'transporter':
          t.transporter ??= cleanValue(value);
          break;
        case 'supplier':
          t.supplier ??= cleanValue(value);
          break;
        case 'site':
          t.site ??= cleanValue(value);
          break;
        case 'tare':
          t.tareWeight ??= parseMassKg(value);
          t.tareDateTime ??= parseDateTime(value.replace(/^[\d ,.]+\s*kg/i, ''));
          lastMass = 'tare';
          break;
        case 'gross':
          t.grossWeight ??= parseMassKg(value);
          t.grossDateTime ??= parseDateTime(value.replace(/^[\d ,.]+\s*kg/i, ''));
          lastMass = 'gross';
          break;
        case 'net':
          t.netWeight ??= parseMassKg(value);
          lastMass = null;
          break;
        case 'first':
          weighings.first ??= parseMassKg(value);
          weighings.firstAt ??= parseDateTime(value.replace(/^[\d ,.]+\s*kg/i, ''));
          lastMass = 'first';
          break;
        case 'second':
          weighings.second ??= parseMassKg(value);
          weighings.secondAt ??= parseDateTime(value.replace(/^[\d ,.]+\s*kg/i, ''));
          lastMass = 'second';
          break;
        case 'firstDateTime':
          weighings.firstAt ??= parseDateTime(value);
          break;
        case 'secondDateTime':
          weighings.secondAt ??= parseDateTime(value);
          break;
        case 'tareDateTime':
          t.tareDateTime ??= parseDateTime(value);
          break;
        case 'grossDateTime':
          t.grossDateTime ??= parseDateTime(value);
          break;
        case 'date':
          // A bare "Date:" right after a mass line belongs to that weighing.
          if (lastMass === 'tare') t.tareDateTime ??= parseDateTime(value);
          else if (lastMass === 'gross') t.grossDateTime ??= parseDateTime(value);
          else if (lastMass === 'first') weighings.firstAt ??= parseDateTime(value);
          else if (lastMass === 'second') weighings.secondAt ??= parseDateTime(value);
          break;
        case 'seal':
          for (const s of value.split(/[,;/]|\s{2,}|\s+&\s+|\band\b/)) {
            const seal = s.trim().replace(/[^A-Z0-9-]/gi, '');
            if (seal.length >= 3 && /\d/.test(seal) && !t.sealNumbers.includes(seal))
              t.sealNumbers.push(seal);
          }
          break;
        case 'tareOperator':
          t.tareOperator ??= cleanValue(value);
          break;
        case 'grossOperator':
          t.grossOperator ??= cleanValue(value);
          break;
        case 'operator':
          if (lastMass === 'tare') t.tareOperator ??= cleanValue(value);
          else if (lastMass === 'gross') t.grossOperator ??= cleanValue(value);
          else t.operator ??= cleanValue(value);
          break;
      }
    }
  }
  if (
    weighings.first !== null &&
    weighings.second !== null &&
    t.tareWeight === null &&
    t.grossWeight === null
  ) {
    const isFirstTare = weighings.first <= weighings.second;
    t.tareWeight = isFirstTare ? weighings.first : weighings.second;
    t.grossWeight = isFirstTare ? weighings.second : weighings.first;
    t.tareDateTime ??= isFirstTare ? weighings.firstAt : weighings.secondAt;
    t.grossDateTime ??= isFirstTare ? weighings.secondAt : weighings.firstAt;
  } else {
    t.tareDateTime ??= weighings.firstAt;
    t.grossDateTime ??= weighings.secondAt;
  }
  Object.assign(t, checkMasses(t));
  t.isPartial = t.ticketNumber === null;
  return t;
}

/**
 * gross − tare = net within WEIGHBRIDGE_MASS_TOLERANCE_KG (`ok`), or net derived from gross − tare
 * when it is missing.
 */
export function checkMasses({
  tareWeight,
  grossWeight,
  netWeight,
}: Pick<WeighbridgeTicket, 'tareWeight' | 'grossWeight' | 'netWeight'>): Pick<
  WeighbridgeTicket,
  'netWeight' | 'massCheck'
> {
  if (tareWeight === null || grossWeight === null) return { netWeight, massCheck: 'incomplete' };
  if (netWeight === null) return { netWeight: grossWeight - tareWeight, massCheck: 'derived' };
  return {
    netWeight,
    massCheck:
      Math.abs(grossWeight - tareWeight - netWeight) <= WEIGHBRIDGE_MASS_TOLERANCE_KG
        ? 'ok'
        : 'mismatch',
  };
}
