/**
 * Optional AI reader: an OpenAI-compatible chat-completions endpoint with image input and a strict
 * JSON schema per document type (`./field-schemas`). Off unless configured. In `fallback` mode it is
 * asked only when local reading is weak; in `primary` mode it is asked first for OCR-only types and
 * over local OCR for the others. Barcode and check-valid MRZ readings always win over it. Runs on the
 * main thread (it is network I/O).
 */
import { formatPlate, normalisePlate } from '@boomgate/contracts/plates';

import { matchPlatePatterns } from '../documents/plate';
import { checkMasses } from '../documents/weighbridge';
import type { AiMode, AiProviderOptions, DocumentType, ReadResult } from '../types';

import { aiResponseFormat, aiResponseSchema, findSchemaViolation } from './field-schemas';

/** Types no barcode or MRZ can settle: in `primary` mode the AI reads these before local OCR runs. */
export const OCR_ONLY_TYPES: readonly DocumentType[] = ['plate', 'weighbridge'];

function imageDataUrl(image: Uint8Array): string {
  const b = image;
  const mime = b[0] === 0x89 ? 'image/png' : b[0] === 0x52 ? 'image/webp' : 'image/jpeg';
  return `data:${mime};base64,${Buffer.from(b).toString('base64')}`;
}

/**
 * The answer as JSON. Structured outputs give JSON alone; a provider without them may wrap one
 * object in prose, which is taken only when the whole content is not JSON itself.
 */
function parseAnswer(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    const match = /\{[\s\S]*\}/.exec(content);
    if (!match) return null;
    try {
      return JSON.parse(match[0]);
    } catch {
      return null;
    }
  }
}

const isEmpty = (value: unknown) =>
  value === null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * A model's answer is one reading that nothing confirms (it may invent a plausible value): every
 * field it fills is returned uncertain, for the guard to confirm.
 */
function unconfirmed(result: ReadResult | null): ReadResult | null {
  if (!result?.ok) return result;
  const uncertain = Object.entries(result.fields)
    .filter(([, v]) => !isEmpty(v) && v !== undefined && typeof v !== 'boolean')
    .map(([k]) => k);
  return {
    ...result,
    uncertain,
    fieldConfidence: Object.fromEntries(uncertain.map((k) => [k, result.confidence])),
  };
}

/** Schema-valid answer → the fields the local readers would give (derived fields included). */
function toResult(
  type: DocumentType,
  answer: Record<string, unknown>,
  content: string,
): ReadResult | null {
  if (Object.values(answer).every(isEmpty)) return null;
  const base = { ok: true, type, text: content, source: 'ai', confidence: 0.6 } as const;
  switch (type) {
    case 'plate': {
      const plateNumber = normalisePlate((answer.plateNumber as string | null) ?? '');
      if (!plateNumber) return null;
      const displayPlate = formatPlate(plateNumber);
      return {
        ...base,
        fields: {
          plateNumber,
          registrationNumber: plateNumber,
          extractedPlate: displayPlate,
          displayPlate,
          pattern: matchPlatePatterns(plateNumber)[0] ?? null,
        },
      };
    }
    case 'license':
      return {
        ...base,
        fields: { ...answer, vehicleCode: (answer.vehicleCodes as string[]).join(', ') },
      };
    case 'weighbridge': {
      const masses = checkMasses(answer as Parameters<typeof checkMasses>[0]);
      const isPartial = answer.ticketNumber === null;
      return {
        ...base,
        fields: { ...answer, ...masses, isPartial },
        ...(isPartial ? { partial: true, warnings: ['No ticket number found.'] } : {}),
      };
    }
    case 'disk':
    case 'id':
    case 'passport':
      return { ...base, fields: answer };
  }
}

export type AiReader = (type: DocumentType, image: Uint8Array) => Promise<ReadResult | null>;

/**
 * Returns null on any provider failure (HTTP error, timeout, refusal, no JSON, an answer that does not
 * match the type's schema, nothing read): the local result then stands.
 */
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
          response_format: aiResponseFormat(type),
          messages: [
            {
              role: 'system',
              content:
                'You read South African gate documents from photos. Answer with one JSON object that follows the given schema. Use null (or an empty list) for fields you cannot read; never guess.',
            },
            {
              role: 'user',
              content: [
                {
                  type: 'text',
                  text: `Document type: ${type}. Fields: ${Object.keys(aiResponseSchema(type).properties).join(', ')}.`,
                },
                { type: 'image_url', image_url: { url: imageDataUrl(image) } },
              ],
            },
          ],
        }),
      });
      if (!response.ok) return null;
      const body = (await response.json()) as {
        choices?: Array<{ message?: { content?: string | null; refusal?: string | null } }>;
      };
      const message = body.choices?.[0]?.message;
      if (!message || message.refusal) return null;
      const content = message.content ?? '';
      const answer = parseAnswer(content);
      if (findSchemaViolation(answer, aiResponseSchema(type)) !== null) return null;
      return unconfirmed(toResult(type, answer as Record<string, unknown>, content));
    } catch {
      return null;
    }
  };
}

/**
 * Deterministic barcode and check-valid MRZ readings always win. Otherwise `fallback` asks only for
 * weak OCR (below `minConfidence`), failed reads and failing MRZ checks; `primary` asks every time.
 */
export function shouldAskAi(
  result: ReadResult,
  minConfidence: number,
  mode: AiMode = 'fallback',
): boolean {
  if (!result.ok) return true;
  if (result.source === 'barcode') return false;
  if (result.source === 'mrz' && result.fields.checksValid === true) return false;
  if (mode === 'primary' || result.source === 'mrz') return true;
  return result.confidence < minConfidence;
}
