/**
 * Optional AI fallback: an OpenAI-compatible chat-completions endpoint with image input, asked only
 * when local reading is weak. Off unless configured. Runs on the main thread (it is network I/O).
 */
import type { AiProviderOptions, DocumentType, ReadResult } from '../types';

const FIELD_HINTS: Record<DocumentType, string> = {
  plate: 'plateNumber (A-Z0-9 only, no spaces)',
  disk: 'discNumber, licenceNumber, vehicleRegisterNo, vin, engineNo, make, description, gvm, tare, dateOfTest, persons, dateOfExpiry',
  license:
    'nameOnCard, licenceNumber, idNumber, validFrom, validTo, vehicleCode, vehicleRestrictions',
  id: 'surname, givenNames, identityNumber, dateOfBirth, countryOfBirth, sex, nationality, dateOfIssue',
  passport:
    'passportNumber, surname, givenNames, nationality, dateOfBirth, sex, expiryDate, issuingCountry, mrzLines (array of strings)',
  weighbridge:
    'ticketNumber, site, vehicleReg, trailerRegs (array), product, customer, transporter, supplier, tareWeight, grossWeight, netWeight (kg numbers), tareDateTime, grossDateTime, sealNumbers (array), tareOperator, grossOperator',
};

function imageDataUrl(image: Uint8Array): string {
  const b = image;
  const mime = b[0] === 0x89 ? 'image/png' : b[0] === 0x52 ? 'image/webp' : 'image/jpeg';
  return `data:${mime};base64,${Buffer.from(b).toString('base64')}`;
}

function parseJsonObject(content: string): Record<string, unknown> | null {
  const match = /\{[\s\S]*\}/.exec(content);
  if (!match) return null;
  try {
    const value: unknown = JSON.parse(match[0]);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export type AiReader = (type: DocumentType, image: Uint8Array) => Promise<ReadResult | null>;

/** Returns null on any provider failure: the local result then stands. */
export function createAiReader(options: AiProviderOptions): AiReader {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return async (type, image) => {
    try {
      const response = await fetch(url, {
        method: 'POST',
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
        body: JSON.stringify({
          model: options.model,
          temperature: 0,
          messages: [
            {
              role: 'system',
              content:
                'You read South African gate documents from photos. Answer with one JSON object only. Use null for fields you cannot read; never guess.',
            },
            {
              role: 'user',
              content: [
                {
                  type: 'text',
                  text: `Document type: ${type}. Return JSON with: ${FIELD_HINTS[type]}.`,
                },
                { type: 'image_url', image_url: { url: imageDataUrl(image) } },
              ],
            },
          ],
        }),
      });
      if (!response.ok) return null;
      const body = (await response.json()) as {
        choices?: Array<{ message?: { content?: string } }>;
      };
      const content = body.choices?.[0]?.message?.content ?? '';
      const fields = parseJsonObject(content);
      if (!fields) return null;
      if (type === 'plate' && typeof fields.plateNumber === 'string') {
        fields.plateNumber = fields.plateNumber.toUpperCase().replace(/[^A-Z0-9]/g, '');
        if (!fields.plateNumber) return null;
      }
      return { ok: true, type, fields, text: content, source: 'ai', confidence: 0.6 };
    } catch {
      return null;
    }
  };
}

/** Deterministic barcode and check-valid MRZ readings always win; the AI only fills in for weak OCR. */
export function shouldAskAi(result: ReadResult, minConfidence: number): boolean {
  if (!result.ok) return true;
  if (result.source === 'barcode') return false;
  if (result.source === 'mrz') return result.fields.checksValid !== true;
  return result.confidence < minConfidence;
}
