/**
 * What the optional AI provider is asked to return, per document type: one JSON schema each, built
 * from the field lists below (the same field names the local readers use), sent as a strict
 * `response_format` and checked again on the answer. Strict structured outputs need every property
 * listed in `required` and `additionalProperties: false`; an unreadable field is `null`, never left out.
 */
import type { DocumentType } from '../types';

/** The subset of JSON Schema these schemas use (and the validator below understands). */
export type JsonSchema =
  | {
      type: 'object';
      properties: Record<string, JsonSchema>;
      required: string[];
      additionalProperties: false;
    }
  | { type: 'array'; items: JsonSchema; description?: string }
  | { type: 'string' | ['string', 'null']; pattern?: string; description?: string }
  | { type: 'number' | ['number', 'null']; description?: string };

const text = (description?: string): JsonSchema => ({
  type: ['string', 'null'],
  ...(description ? { description } : {}),
});
const date = (): JsonSchema => ({
  type: ['string', 'null'],
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  description: 'YYYY-MM-DD',
});
const dateTime = (): JsonSchema => ({
  type: ['string', 'null'],
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2})?)?$',
  description: 'local time as printed, YYYY-MM-DDTHH:MM[:SS]',
});
const kg = (): JsonSchema => ({ type: ['number', 'null'], description: 'kilograms' });
const texts = (description?: string): JsonSchema => ({
  type: 'array',
  items: { type: 'string' },
  ...(description ? { description } : {}),
});

/** Fields the provider may fill per type: the printed or camera-readable ones of the README's table. */
export const AI_FIELDS: Record<DocumentType, Record<string, JsonSchema>> = {
  plate: { plateNumber: text('the number plate, letters and digits as printed') },
  disk: {
    licenceNumber: text('licence number (the vehicle plate)'),
    vehicleRegisterNo: text(),
    vin: text(),
    engineNo: text(),
    make: text(),
    model: text(),
    description: text(),
    colour: text(),
    dateOfExpiry: date(),
    controlNumber: text(),
    discNumber: text(),
    tare: kg(),
    gvm: kg(),
    dateOfTest: date(),
    fees: text(),
  },
  license: {
    nameOnCard: text(),
    idNumber: text('13-digit SA ID number'),
    licenceNumber: text(),
    validFrom: date(),
    validTo: date(),
    vehicleCodes: texts('licence codes, e.g. B, EB, C1'),
  },
  id: {
    surname: text(),
    givenNames: text(),
    sex: text('M or F'),
    nationality: text(),
    identityNumber: text('13-digit SA ID number'),
    dateOfBirth: date(),
    countryOfBirth: text(),
    status: text(),
    dateOfIssue: date(),
  },
  passport: {
    passportNumber: text(),
    surname: text(),
    givenNames: text(),
    nationality: text('ICAO 3-letter code'),
    issuingCountry: text('ICAO 3-letter code'),
    dateOfBirth: date(),
    sex: text('M, F or X'),
    expiryDate: date(),
    personalNumber: text(),
    mrzLines: texts('machine-readable zone lines exactly as printed, < fillers kept'),
  },
  weighbridge: {
    ticketNumber: text(),
    site: text(),
    vehicleReg: text(),
    trailerRegs: texts(),
    product: text(),
    customer: text(),
    transporter: text(),
    supplier: text(),
    tareWeight: kg(),
    grossWeight: kg(),
    netWeight: kg(),
    tareDateTime: dateTime(),
    grossDateTime: dateTime(),
    sealNumbers: texts(),
    tareOperator: text(),
    grossOperator: text(),
  },
};

export type JsonObjectSchema = Extract<JsonSchema, { type: 'object' }>;

export type AiResponseFormat = {
  type: 'json_schema';
  json_schema: { name: string; strict: true; schema: JsonObjectSchema };
};

export function aiResponseSchema(type: DocumentType): JsonObjectSchema {
  const properties = AI_FIELDS[type];
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

/** The chat-completions `response_format` for one document type. */
export function aiResponseFormat(type: DocumentType): AiResponseFormat {
  return {
    type: 'json_schema',
    json_schema: { name: `boomgate_${type}`, strict: true, schema: aiResponseSchema(type) },
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a value against one of the schemas above. Returns the first problem (`path: what`), or
 * null when the value conforms.
 */
export function findSchemaViolation(value: unknown, schema: JsonSchema, path = '$'): string | null {
  if (schema.type === 'object') {
    if (!isPlainObject(value)) return `${path}: not an object`;
    for (const key of schema.required) {
      if (!(key in value)) return `${path}.${key}: missing`;
    }
    for (const [key, item] of Object.entries(value)) {
      const property = schema.properties[key];
      if (!property) return `${path}.${key}: not in the schema`;
      const problem = findSchemaViolation(item, property, `${path}.${key}`);
      if (problem) return problem;
    }
    return null;
  }
  if (schema.type === 'array') {
    if (!Array.isArray(value)) return `${path}: not an array`;
    for (const [i, item] of value.entries()) {
      const problem = findSchemaViolation(item, schema.items, `${path}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  const [kind, isNullable] = Array.isArray(schema.type)
    ? [schema.type[0], true]
    : [schema.type, false];
  if (value === null) return isNullable ? null : `${path}: null`;
  if (kind === 'number') {
    return typeof value === 'number' && Number.isFinite(value) ? null : `${path}: not a number`;
  }
  if (typeof value !== 'string') return `${path}: not a string`;
  if ('pattern' in schema && schema.pattern && !new RegExp(schema.pattern).test(value)) {
    return `${path}: does not match ${schema.pattern}`;
  }
  return null;
}
