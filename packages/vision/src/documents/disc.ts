/** SA vehicle licence disc (form MVL1) PDF417 payload: plain `%`-delimited text, 14 positional fields. */
export type LicenceDisc = {
  formCode: string;
  declaredLength: number;
  /** Field 2 is the payload's own length; a mismatch means a partial or hand-made scan. */
  isLengthValid: boolean;
  unknown3: string;
  unknown4: string;
  controlNumber: string;
  /** The number plate, no spaces (field 6). */
  licenceNumber: string;
  /** NaTIS vehicle register number (field 7), e.g. HXV436S. */
  vehicleRegisterNumber: string;
  description: string;
  make: string;
  model: string;
  colour: string;
  vin: string;
  engineNumber: string;
  /** ISO YYYY-MM-DD. */
  expiryDate: string;
};

export function isDiscPayload(text: string): boolean {
  return /^%?MVL1/.test(text.trim());
}

/** Keeps the English half of bilingual values such as `White / Wit`. */
export function englishHalf(value: string): string {
  return value.split(' / ')[0]!.trim();
}

export function parseDisc(payload: string): LicenceDisc | null {
  const s = payload.trim();
  const p = s.split('%');
  if (p.length < 16 || !/^MVL1/.test(p[1] ?? '')) return null;
  const declaredLength = Number(p[2]);
  return {
    formCode: p[1]!,
    declaredLength,
    isLengthValid: declaredLength === s.length,
    unknown3: p[3]!,
    unknown4: p[4]!,
    controlNumber: p[5]!,
    licenceNumber: p[6]!,
    vehicleRegisterNumber: p[7]!,
    description: p[8]!,
    make: p[9]!,
    model: p[10]!,
    colour: p[11]!,
    vin: p[12]!,
    engineNumber: p[13]!,
    expiryDate: p[14]!,
  };
}

/** Printed on the disc but not in its barcode (sa-documents §1.4): tare, GVM, persons, date of test, disc no., fees. */
export function extractDiscPrintedFields(text: string) {
  const mass = (re: RegExp) => {
    const m = re.exec(text);
    return m ? Number(m[1]!.replace(/[\s,]/g, '')) : null;
  };
  const dateOfTest =
    /(?:date\s*of\s*test|datum\s*van\s*toets)[^\d]{0,20}(\d{4}[-/.]\d{2}[-/.]\d{2}|\d{2}[-/.]\d{2}[-/.]\d{4})/i.exec(
      text,
    )?.[1] ?? null;
  const persons =
    /(?:persons|personne|sittende|seated)[^\d]{0,30}(\d{1,3})(?:\D{1,20}(\d{1,3}))?/i.exec(text);
  const discNumber = /\b(?:NO|NR)\.?\s*[:.]?\s*([A-Z0-9]{6,14})\b/.exec(text)?.[1] ?? null;
  const fees = /(?:fees|gelde)[^\d]{0,20}(?:R\s*)?(\d+[.,]\d{2})/i.exec(text)?.[1] ?? null;
  return {
    tare: mass(/(?:tare|tarra)[^\d]{0,20}(\d[\d\s,]{0,7}\d)\s*(?:kg)?/i),
    gvm: mass(/(?:gvm|bvm)[^\d]{0,20}(\d[\d\s,]{0,7}\d)\s*(?:kg)?/i),
    dateOfTest,
    persons: persons
      ? { seated: Number(persons[1]), standing: persons[2] ? Number(persons[2]) : null }
      : null,
    discNumber,
    fees,
  };
}
