import { ZodError } from 'zod';

import type { Reading } from '@boomgate/contracts/readings';

import { hasExtractedData, ocrFields, readDocument } from '@/lib/api/ocr';
import { type TicketReading, ticketFromFields } from '@/lib/api/weighbridge-tickets';

/**
 * `captureId`: the image as the server stored it when reading it; the save cites it (issue 14).
 * `typed`: the typed reading (confidence, source, uncertain fields); null when entered manually.
 */
export type Scan = {
  image: string | null;
  captureId: string | null;
  reading: TicketReading;
  typed: Reading | null;
};

/** Thrown when /api/ocr answers something the screen cannot read as ticket fields. */
export class InvalidOcrResponse extends Error {}

export async function scanTicket(
  image: string,
): Promise<{ reading: TicketReading; captureId: string; typed: Reading | null } | null> {
  let fields;
  let text = '';
  let captureId: string;
  let typed: Reading | null;
  try {
    const response = await readDocument(image, 'weighbridge');
    if (!response.ok) return null;
    fields = ocrFields(response);
    text = response.text;
    captureId = response.captureId;
    typed = response.reading;
  } catch (error) {
    if (error instanceof ZodError || error instanceof SyntaxError) throw new InvalidOcrResponse();
    throw error;
  }
  return hasExtractedData(fields)
    ? { reading: ticketFromFields(fields, text), captureId, typed }
    : null;
}

export type TicketField = Exclude<keyof TicketReading, 'rawOcrText'>;

/** The ticket's fields in the order the ticket prints them; labels are `weighbridge:fields.<key>`. */
export const TICKET_FIELDS: { key: TicketField; isWeight?: boolean }[] = [
  { key: 'ticketNumber' },
  { key: 'site' },
  { key: 'vehicleReg' },
  { key: 'trailerRegs' },
  { key: 'product' },
  { key: 'customer' },
  { key: 'transporter' },
  { key: 'supplier' },
  { key: 'grossWeight', isWeight: true },
  { key: 'tareWeight', isWeight: true },
  { key: 'netWeight', isWeight: true },
  { key: 'tareDateTime' },
  { key: 'grossDateTime' },
  { key: 'sealNumbers' },
  { key: 'tareOperator' },
  { key: 'grossOperator' },
];

/** A typed weight as kilograms; blank is no weight, anything else not a number is kept out. */
export const kilograms = (text: string): number | null => {
  const cleaned = text.replace(/[\s,]|kg$/gi, '');
  if (cleaned === '') return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
};
