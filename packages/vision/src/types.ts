/** The document kinds the engine can read. `type` values match the product's OCR request. */
export const DOCUMENT_TYPES = [
  'plate',
  'disk',
  'license',
  'id',
  'passport',
  'weighbridge',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Where a result came from. Barcode and check-verified MRZ outrank OCR; `ai` is the optional remote fallback. */
export type ReadSource = 'ocr' | 'barcode' | 'mrz' | 'ai';

export type ReadAlternative = { value: string; confidence: number; pattern?: string };

export type ReadSuccess = {
  ok: true;
  type: DocumentType;
  fields: Record<string, unknown>;
  /** The raw text the fields came from (OCR text, barcode text, MRZ lines). */
  text: string;
  source: ReadSource;
  /** 0..1 */
  confidence: number;
  alternatives?: ReadAlternative[];
  /** Some expected fields are missing (e.g. a weighbridge ticket without a ticket number). */
  partial?: boolean;
  warnings?: string[];
  /**
   * Names of `fields` the engine could not confirm (no checksum covers them and no second,
   * independent reading agreed). The guard must confirm or correct them; a field not listed here
   * is claimed to be right. Empty or absent: every field is confirmed.
   */
  uncertain?: string[];
  /** Per-field confidence 0..1, keyed like `fields`; a missing key falls back to `confidence`. */
  fieldConfidence?: Record<string, number>;
};

/** The image was valid but nothing usable was found in it (no plate, no barcode, no MRZ...). */
export type ReadFailure = {
  ok: false;
  type: DocumentType;
  error: string;
  text: string;
  fields: Record<string, unknown>;
  confidence: 0;
};

export type ReadResult = ReadSuccess | ReadFailure;

export type BarcodeFormat = string;

export type Barcode = {
  format: BarcodeFormat;
  /**
   * Text as decoded by the reader. zxing-cpp escapes control and non-printable bytes of a binary
   * payload (`<U+82>`, `<HT>`): use `bytes` for those (the CLI prints them read as ISO-8859-1).
   */
  text: string;
  /** The exact payload bytes: bytes >= 0x80 matter for the SA driving licence. */
  bytes: Uint8Array;
  /** Set when the symbol is part of a Macro PDF417 / structured-append sequence. */
  sequence?: { id: string; index: number; size: number };
  /** True for a message assembled from all symbols of a sequence. */
  isAssembled?: boolean;
};

/**
 * `fallback`: the AI is asked only when local reading is weak. `primary`: it is asked first for
 * OCR-only types (plate, weighbridge) and over local OCR for the others. Barcode and check-valid MRZ
 * readings win in both modes.
 */
export type AiMode = 'fallback' | 'primary';

export type AiProviderOptions = {
  /** OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1 */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Default `fallback`. */
  mode?: AiMode;
  /** `fallback` mode: ask the provider only when local confidence is below this (0..1). Default 0.6. */
  minConfidence?: number;
  timeoutMs?: number;
};
