import { useMutation, useQueryClient } from '@tanstack/react-query';

import { CreatedIdSchema, type WeighbridgeTicketBody } from '@boomgate/contracts/documents';
import { WEIGHBRIDGE_MASS_TOLERANCE_KG } from '@boomgate/vision/mass-tolerance';

import { request } from '@/lib/api-client';

import { numberField, type OcrFields, textField } from './ocr';
import { gateKeys } from './query-keys';

/** A weighbridge ticket as read from its photo, before it is saved. */
export type TicketReading = {
  ticketNumber: string | null;
  site: string | null;
  vehicleReg: string | null;
  trailerRegs: string | null;
  product: string | null;
  customer: string | null;
  transporter: string | null;
  supplier: string | null;
  tareWeight: number | null;
  grossWeight: number | null;
  netWeight: number | null;
  tareDateTime: string | null;
  grossDateTime: string | null;
  sealNumbers: string | null;
  tareOperator: string | null;
  grossOperator: string | null;
  rawOcrText: string | null;
};

export function ticketFromFields(fields: OcrFields, rawText = ''): TicketReading {
  return {
    ticketNumber: textField(fields, 'ticketNumber'),
    site: textField(fields, 'site'),
    vehicleReg: textField(fields, 'vehicleReg'),
    trailerRegs: textField(fields, 'trailerRegs'),
    product: textField(fields, 'product'),
    customer: textField(fields, 'customer'),
    transporter: textField(fields, 'transporter'),
    supplier: textField(fields, 'supplier'),
    tareWeight: numberField(fields, 'tareWeight'),
    grossWeight: numberField(fields, 'grossWeight'),
    netWeight: numberField(fields, 'netWeight'),
    tareDateTime: textField(fields, 'tareDateTime'),
    grossDateTime: textField(fields, 'grossDateTime'),
    sealNumbers: textField(fields, 'sealNumbers'),
    tareOperator: textField(fields, 'tareOperator'),
    grossOperator: textField(fields, 'grossOperator'),
    rawOcrText: textField(fields, 'rawOcrText') ?? (rawText.trim() || null),
  };
}

/** Whether gross − tare = net (within the tolerance); null when a weight is missing. */
export function weightsAgree(ticket: {
  tareWeight: number | null;
  grossWeight: number | null;
  netWeight: number | null;
}): boolean | null {
  const { tareWeight, grossWeight, netWeight } = ticket;
  if (tareWeight === null || grossWeight === null || netWeight === null) return null;
  return Math.abs(grossWeight - tareWeight - netWeight) <= WEIGHBRIDGE_MASS_TOLERANCE_KG;
}

/** The ticket to save; with the capture the read stored, the image is cited, not sent again. */
export function ticketBody(
  reading: TicketReading,
  ticketImage: string | null,
  captureId?: string | null,
): WeighbridgeTicketBody {
  if (captureId) return { ...reading, ticketImageCaptureId: captureId };
  // Issue 15: a ticket entered manually has no image.
  return ticketImage ? { ...reading, ticketImage } : { ...reading };
}

/** POST /api/weighbridge-ticket → the saved ticket's id. */
export function saveWeighbridgeTicket(body: WeighbridgeTicketBody) {
  return request('POST', '/api/weighbridge-ticket', { schema: CreatedIdSchema, body });
}

/** Saves a ticket and refreshes the recent tickets. */
export function useSaveWeighbridgeTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveWeighbridgeTicket,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: gateKeys.weighbridgeTickets });
    },
  });
}
