/**
 * What the optional AI provider is asked to return, per document type: one JSON schema each,
 * generated from the contracts' typed readings (names and value kinds), sent as a strict
 * `response_format` and checked again on the answer. Strict structured outputs need every property
 * listed in `required` and `additionalProperties: false`; an unreadable field is `null`, never left out.
 */
import { type ReadingValueKind, readingFieldKinds } from '@boomgate/contracts/readings';

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

/**
 * Fields the provider may fill per type (the printed or camera-readable ones of the README's
 * table), in the order asked. Names and value kinds come from the contracts' typed readings
 * (packages/contracts/src/readings.ts): a name the reading does not have fails at load.
 */
const AI_FIELD_NAMES: Record<DocumentType, readonly string[]> = {
  plate: ['plateNumber'],
  disk: [
    'licenceNumber',
    'vehicleRegisterNo',
    'vin',
    'engineNo',
    'make',
    'model',
    'description',
    'colour',
    'dateOfExpiry',
    'controlNumber',
    'discNumber',
    'tare',
    'gvm',
    'dateOfTest',
    'fees',
  ],
  license: ['nameOnCard', 'idNumber', 'licenceNumber', 'validFrom', 'validTo', 'vehicleCodes'],
  id: [
    'surname',
    'givenNames',
    'sex',
    'nationality',
    'identityNumber',
    'dateOfBirth',
    'countryOfBirth',
    'status',
    'dateOfIssue',
  ],
  passport: [
    'passportNumber',
    'surname',
    'givenNames',
    'nationality',
    'issuingCountry',
    'dateOfBirth',
    'sex',
    'expiryDate',
    'personalNumber',
    'mrzLines',
  ],
  weighbridge: [
    'ticketNumber',
    'site',
    'vehicleReg',
    'trailerRegs',
    'product',
    'customer',
    'transporter',
    'supplier',
    'tareWeight',
    'grossWeight',
    'netWeight',
    'tareDateTime',
    'grossDateTime',
    'sealNumbers',
    'tareOperator',
    'grossOperator',
  ],
};

const DATE = { pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' };
const DATE_TIME = {
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2})?)?$',
  description: 'local time as printed, YYYY-MM-DDTHH:MM[:SS]',
};

/** What the provider is told about a field beyond its kind: format and meaning. */
const HINTS: Partial<
  Record<DocumentType, Record<string, { pattern?: string; description?: string }>>
> = {
  plate: { plateNumber: { description: 'the number plate, letters and digits as printed' } },
  disk: {
    licenceNumber: { description: 'licence number (the vehicle plate)' },
    dateOfExpiry: DATE,
    dateOfTest: DATE,
  },
  license: {
    idNumber: { description: '13-digit SA ID number' },
    validFrom: DATE,
    validTo: DATE,
    vehicleCodes: { description: 'licence codes, e.g. B, EB, C1' },
  },
  id: {
    sex: { description: 'M or F' },
    identityNumber: { description: '13-digit SA ID number' },
    dateOfBirth: DATE,
    dateOfIssue: DATE,
  },
  passport: {
    nationality: { description: 'ICAO 3-letter code' },
    issuingCountry: { description: 'ICAO 3-letter code' },
    dateOfBirth: DATE,
    sex: { description: 'M, F or X' },
    expiryDate: DATE,
    mrzLines: {
      description: 'machine-readable zone lines exactly as printed, < fillers kept',
    },
  },
  weighbridge: { tareDateTime: DATE_TIME, grossDateTime: DATE_TIME },
};

/** A field's JSON schema from its kind in the contracts reading (strict: null when unread). */
function fieldSchema(
  kind: ReadingValueKind | undefined,
  type: DocumentType,
  name: string,
): JsonSchema {
  if (kind === undefined)
    throw new Error(`AI field ${type}.${name} is not a field of the contracts reading`);
  const hint = HINTS[type]?.[name] ?? {};
  const description = hint.description ?? (kind === 'number' ? 'kilograms' : undefined);
  const described = description ? { description } : {};
  switch (kind) {
    case 'number':
      return { type: ['number', 'null'], ...described };
    case 'texts':
      return { type: 'array', items: { type: 'string' }, ...described };
    case 'text':
      return {
        type: ['string', 'null'],
        ...(hint.pattern ? { pattern: hint.pattern } : {}),
        ...described,
      };
  }
}

/** Per type: the JSON schema of each field the provider may fill, generated from the readings. */
export const AI_FIELDS: Record<DocumentType, Record<string, JsonSchema>> = Object.fromEntries(
  (Object.keys(AI_FIELD_NAMES) as DocumentType[]).map((type) => {
    const kinds = readingFieldKinds(type);
    return [
      type,
      Object.fromEntries(
        AI_FIELD_NAMES[type].map((name) => [name, fieldSchema(kinds[name], type, name)]),
      ),
    ];
  }),
) as Record<DocumentType, Record<string, JsonSchema>>;

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
