import { useMutation } from '@tanstack/react-query';
import { KeyboardIcon, RotateCcwIcon, SaveIcon, ScaleIcon, ScanLineIcon } from 'lucide-react';
import { useState } from 'react';
import { ZodError } from 'zod';

import type { CorrectionInput } from '@boomgate/contracts/corrections';
import type { Reading } from '@boomgate/contracts/readings';

import { CameraCaptureDialog } from '@/components/camera/camera-capture-dialog';
import { ReadingField } from '@/components/reading-field';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen, Spinner } from '@/components/ui/spinner';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { hasExtractedData, ocrFields, readDocument } from '@/lib/api/ocr';
import {
  type TicketReading,
  ticketBody,
  ticketFromFields,
  useSaveWeighbridgeTicket,
  weightsAgree,
} from '@/lib/api/weighbridge-tickets';
import { correctionsOf, startEdits, useReadingEdits } from '@/lib/corrections';
import { formatDate, formatTime } from '@/lib/format';

import { useWeighbridgeTickets } from '../api/get-weighbridge-tickets';

import { formatKg, WeightCheck } from './weights';

/**
 * `captureId`: the image as the server stored it when reading it; the save cites it (issue 14).
 * `typed`: the typed reading (confidence, source, uncertain fields); null when entered manually.
 */
type Scan = {
  image: string | null;
  captureId: string | null;
  reading: TicketReading;
  typed: Reading | null;
};

/** Thrown when /api/ocr answers something the screen cannot read as ticket fields. */
class InvalidOcrResponse extends Error {}

async function scanTicket(
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

const TICKET_FIELDS: {
  key: Exclude<keyof TicketReading, 'rawOcrText'>;
  label: string;
  isWeight?: boolean;
}[] = [
  { key: 'ticketNumber', label: 'Ticket Number' },
  { key: 'site', label: 'Site' },
  { key: 'vehicleReg', label: 'Vehicle Reg' },
  { key: 'trailerRegs', label: 'Trailer Regs' },
  { key: 'product', label: 'Product' },
  { key: 'customer', label: 'Customer' },
  { key: 'transporter', label: 'Transporter' },
  { key: 'supplier', label: 'Supplier' },
  { key: 'grossWeight', label: 'Gross Weight', isWeight: true },
  { key: 'tareWeight', label: 'Tare Weight', isWeight: true },
  { key: 'netWeight', label: 'Net Weight', isWeight: true },
  { key: 'tareDateTime', label: 'Tare Date/Time' },
  { key: 'grossDateTime', label: 'Gross Date/Time' },
  { key: 'sealNumbers', label: 'Seal Numbers' },
  { key: 'tareOperator', label: 'Tare Operator' },
  { key: 'grossOperator', label: 'Gross Operator' },
];

/** A typed weight as kilograms; blank is no weight, anything else not a number is kept out. */
const kilograms = (text: string): number | null => {
  const cleaned = text.replace(/[\s,]|kg$/gi, '');
  if (cleaned === '') return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
};

function ExtractedTicket({
  scan,
  isSaving,
  onSave,
  onScanAgain,
}: {
  scan: Scan;
  isSaving: boolean;
  onSave: (reading: TicketReading, corrections: CorrectionInput[]) => void;
  onScanAgain: () => void;
}) {
  // Issue 15: every field editable; uncertain ones confirmed or corrected before saving.
  const { edits, setValue, confirm, pending } = useReadingEdits(() =>
    startEdits(
      'weighbridge',
      scan.captureId,
      scan.typed,
      TICKET_FIELDS.map((field) => field.key),
      scan.reading,
    ),
  );
  const text = (key: string) => edits.fields[key]?.value.trim() || null;
  const reading: TicketReading = {
    ...scan.reading,
    ...Object.fromEntries(
      TICKET_FIELDS.map(({ key, isWeight }) => [
        key,
        isWeight ? kilograms(edits.fields[key]?.value ?? '') : text(key),
      ]),
    ),
  };
  const isPartial = reading.ticketNumber === null;
  return (
    <Card data-testid="extracted-ticket">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          Extracted Ticket
          {isPartial && <Badge variant="secondary">Partial Extraction</Badge>}
        </CardTitle>
        <CardDescription>
          Check the details against the printed ticket before saving.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {isPartial && (
          <Alert variant="warning">
            <AlertTitle>Partial Extraction</AlertTitle>
            <AlertDescription>No ticket number found.</AlertDescription>
          </Alert>
        )}
        <div className="grid gap-4 md:grid-cols-[1fr_12rem]">
          <div className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
            {TICKET_FIELDS.map(({ key, label, isWeight }) => {
              const field = edits.fields[key];
              return field ? (
                <ReadingField
                  key={key}
                  name={key}
                  label={isWeight ? `${label} (kg)` : label}
                  field={field}
                  onChange={setValue}
                  onConfirm={confirm}
                  inputMode={isWeight ? 'decimal' : undefined}
                />
              ) : null;
            })}
          </div>
          {scan.image ? (
            <img
              src={scan.image}
              alt="Scanned weighbridge ticket"
              className="max-h-64 w-full rounded-md border object-contain"
            />
          ) : (
            <p className="text-sm text-muted-foreground">Entered manually, no image.</p>
          )}
        </div>
        <div className="flex items-center gap-2 text-sm">
          <span className="text-muted-foreground">Weight check:</span>
          <WeightCheck agrees={weightsAgree(reading)} />
          <span className="text-muted-foreground">
            {formatKg(reading.grossWeight)} − {formatKg(reading.tareWeight)}
          </span>
        </div>
        {pending.length > 0 && (
          <p role="status" className="text-sm text-amber-800 dark:text-amber-200">
            Confirm or correct the highlighted fields before saving.
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button
            onClick={() => onSave(reading, correctionsOf(edits))}
            disabled={isSaving || pending.length > 0}
          >
            {isSaving ? <Spinner /> : <SaveIcon aria-hidden />}
            Save Ticket
          </Button>
          <Button variant="outline" onClick={onScanAgain} disabled={isSaving}>
            <RotateCcwIcon aria-hidden />
            Scan Again
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function RecentTickets() {
  const tickets = useWeighbridgeTickets();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent Tickets</CardTitle>
        <CardDescription>Saved weighbridge tickets, newest first.</CardDescription>
      </CardHeader>
      <CardContent>
        {tickets.isPending ? (
          <LoadingScreen label="Loading tickets..." />
        ) : tickets.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {getErrorMessage(tickets.error, 'Failed to load tickets')}
          </p>
        ) : tickets.data.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No tickets saved yet</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Date/Time</TableHead>
                <TableHead>Ticket</TableHead>
                <TableHead>Vehicle</TableHead>
                <TableHead className="hidden md:table-cell">Product</TableHead>
                <TableHead className="text-right">Gross</TableHead>
                <TableHead className="text-right">Tare</TableHead>
                <TableHead className="text-right">Net</TableHead>
                <TableHead>Check</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {tickets.data.map((ticket) => (
                <TableRow key={ticket.id} data-testid="ticket-row">
                  <TableCell>
                    <div>{formatDate(ticket.createdAt)}</div>
                    <div className="text-xs text-muted-foreground">
                      {formatTime(ticket.createdAt)}
                    </div>
                  </TableCell>
                  <TableCell className="font-medium">{ticket.ticketNumber ?? '-'}</TableCell>
                  <TableCell className="font-mono">{ticket.vehicleReg ?? '-'}</TableCell>
                  <TableCell className="hidden md:table-cell">{ticket.product ?? '-'}</TableCell>
                  <TableCell className="text-right">{formatKg(ticket.grossWeight)}</TableCell>
                  <TableCell className="text-right">{formatKg(ticket.tareWeight)}</TableCell>
                  <TableCell className="text-right">{formatKg(ticket.netWeight)}</TableCell>
                  <TableCell>
                    <WeightCheck agrees={ticket.weightsConsistent} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

/** Spec §2 Weighbridge Station: scan a ticket, show what was read, save it. */
export function WeighbridgeStation() {
  const [isCameraOpen, setIsCameraOpen] = useState(false);
  const [scan, setScan] = useState<Scan | null>(null);
  /** After a failed or empty read the guard may type the ticket instead (issue 15). */
  const [canEnterManually, setCanEnterManually] = useState(false);
  const saveTicket = useSaveWeighbridgeTicket();
  const scanning = useMutation({ mutationFn: scanTicket });

  const handleCapture = (image: string) => {
    setIsCameraOpen(false);
    setScan(null);
    scanning.mutate(image, {
      onSuccess: (scanned) => {
        if (!scanned) {
          setCanEnterManually(true);
          toast({
            variant: 'destructive',
            title: 'No Data Found',
            description: 'Please try again with better image quality',
          });
          return;
        }
        const { reading, captureId, typed } = scanned;
        setScan({ image, captureId, reading, typed });
        if (reading.ticketNumber === null) {
          toast({ title: 'Partial Extraction', description: 'No ticket number found.' });
        } else {
          toast({
            title: 'Ticket Scanned',
            description: `Ticket ${reading.ticketNumber} extracted.`,
          });
        }
      },
      onError: (error) => {
        setCanEnterManually(true);
        toast({
          variant: 'destructive',
          title: 'Processing Failed',
          description:
            error instanceof InvalidOcrResponse
              ? 'Invalid OCR response format'
              : getErrorMessage(error, 'Failed to process image. Please try again.'),
        });
      },
    });
  };

  const handleSave = (reading: TicketReading, corrections: CorrectionInput[]) => {
    if (!scan) return;
    saveTicket.mutate(
      { ...ticketBody(reading, scan.image, scan.captureId), corrections },
      {
        onSuccess: () => {
          toast({
            title: 'Ticket Saved',
            description: reading.ticketNumber
              ? `Ticket ${reading.ticketNumber} has been saved.`
              : 'The ticket has been saved.',
          });
          setScan(null);
          setCanEnterManually(false);
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Save Failed',
            description: getErrorMessage(error, 'Failed to save ticket'),
          }),
      },
    );
  };

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <PageHeader
        title="Weighbridge Station"
        description="Scan a weighbridge ticket and review the extracted data."
      />
      {scan ? (
        <ExtractedTicket
          scan={scan}
          isSaving={saveTicket.isPending}
          onSave={handleSave}
          onScanAgain={() => {
            setScan(null);
            setIsCameraOpen(true);
          }}
        />
      ) : (
        <Card>
          <CardContent className="flex flex-col items-center gap-4 py-6 text-center">
            <ScaleIcon aria-hidden className="size-12 text-muted-foreground" />
            {scanning.isPending ? (
              <p role="status" className="flex items-center gap-2 text-muted-foreground">
                <Spinner />
                Processing ticket...
              </p>
            ) : (
              <>
                <p className="max-w-md text-sm text-muted-foreground">
                  Photograph the printed ticket flat and well lit; the ticket number, vehicle and
                  weights are read from it.
                </p>
                <div className="flex flex-wrap justify-center gap-2">
                  <Button size="lg" onClick={() => setIsCameraOpen(true)}>
                    <ScanLineIcon aria-hidden />
                    Scan Ticket
                  </Button>
                  {canEnterManually && (
                    <Button
                      size="lg"
                      variant="outline"
                      onClick={() =>
                        setScan({
                          image: null,
                          captureId: null,
                          reading: ticketFromFields({}),
                          typed: null,
                        })
                      }
                    >
                      <KeyboardIcon aria-hidden />
                      Enter manually
                    </Button>
                  )}
                </div>
              </>
            )}
          </CardContent>
        </Card>
      )}
      <RecentTickets />
      <CameraCaptureDialog
        open={isCameraOpen}
        onClose={() => setIsCameraOpen(false)}
        onCapture={handleCapture}
        title="Scan Weighbridge Ticket"
        description="Fit the whole ticket inside the frame."
        guide="page"
        captureLabel="Capture ticket"
      />
    </div>
  );
}
