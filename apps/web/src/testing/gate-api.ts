import { http, HttpResponse } from 'msw';
import type { z } from 'zod';

import type {
  ApprovedVehicle,
  CreateApprovedVehicleBody,
  PlateLookup,
  Trailer,
  VerifyVehicle,
} from '@boomgate/contracts/approved-vehicles';
import type { WeighbridgeTicket } from '@boomgate/contracts/documents';
import type { Dashboard, EntryLog, GrantEntryBody } from '@boomgate/contracts/entry-logs';
import type { FaceComparisonResponse } from '@boomgate/contracts/faces';
import type { InductionValidity } from '@boomgate/contracts/induction';
import type { OcrResponse, OcrType } from '@boomgate/contracts/ocr';
import { normalisePlate } from '@boomgate/contracts/plates';
import { READING_SCHEMAS, ReadingSchema } from '@boomgate/contracts/readings';
import { TRUCK_LIST_COUNT_HEADERS, type TruckListEntry } from '@boomgate/contracts/truck-list';

import { apiError } from './handlers';

const now = () => new Date().toISOString();

export function anApprovedVehicle(overrides: Partial<ApprovedVehicle> = {}): ApprovedVehicle {
  const id = overrides.id ?? crypto.randomUUID();
  return {
    id,
    plateNumber: 'KP35XKGP',
    driverName: 'Sipho Nkosi',
    driverLicense: null,
    company: 'Kumba Haulage',
    driverPhoto: `/api/images/tenant/driver-photos/${id}.jpg`,
    approvedUntil: '2099-12-31',
    isActive: true,
    hasFaceEnrolment: true,
    createdAt: now(),
    pendingApproval: null,
    ...overrides,
  };
}

export function anEntryLog(overrides: Partial<EntryLog> = {}): EntryLog {
  return {
    id: crypto.randomUUID(),
    timestamp: now(),
    category: 'contracted',
    plateNumber: 'KP35XKGP',
    extractedPlate: null,
    vehicleApproved: true,
    faceVerified: true,
    entryGranted: true,
    matchScore: 91.5,
    refusalReason: null,
    driverName: 'Sipho Nkosi',
    driverSurname: null,
    driverIdNumber: null,
    driverPhone1: null,
    driverPhone2: null,
    driverPhone3: null,
    driverPassportNumber: null,
    transportName: null,
    vehicleLicenceDiscId: null,
    identityDocumentId: null,
    driversLicenceId: null,
    passportRecordId: null,
    weighbridgeTicketId: null,
    plateImage: null,
    vehicleDiskImage: null,
    driverFaceImage: null,
    driverLicenseImage: null,
    passportImage: null,
    permitImages: [],
    warnings: [],
    recordedBy: { id: null, name: 'Gift Guard' },
    ...overrides,
  };
}

export function aDashboard(overrides: Partial<Dashboard> = {}): Dashboard {
  return {
    totalEntries: 0,
    todayEntries: 0,
    approvedEntries: 0,
    grantedEntries: 0,
    faceVerifiedEntries: 0,
    approvalRate: 0,
    verificationRate: 0,
    registeredVehicles: 0,
    activeUsers: 1,
    recentEntries: [],
    ...overrides,
  };
}

export function aTruck(overrides: Partial<TruckListEntry> = {}): TruckListEntry {
  return {
    id: crypto.randomUUID(),
    timestamp: now(),
    truckNumber: 'T-1001',
    plateNumber: 'ND123456',
    entryLogId: null,
    trailerPlates: [],
    category: 'other',
    transportName: 'Imperial Logistics',
    ...overrides,
  };
}

export function aTicket(overrides: Partial<WeighbridgeTicket> = {}): WeighbridgeTicket {
  return {
    id: crypto.randomUUID(),
    createdAt: now(),
    ticketNumber: 'WB-20931',
    site: 'Sishen',
    product: 'Iron ore fines',
    vehicleReg: 'ND123456',
    trailerRegs: null,
    tareWeight: 15_000,
    grossWeight: 49_500,
    netWeight: 34_500,
    customer: null,
    transporter: 'Imperial Logistics',
    supplier: null,
    sealNumbers: null,
    tareOperator: null,
    grossOperator: null,
    tareDateTime: null,
    grossDateTime: null,
    ticketImage: null,
    weightsConsistent: true,
    corrections: [],
    ...overrides,
  };
}

export const A_CAPTURE_ID = '0b5c2f0e-7d5e-4c61-9a55-3c1f8c0de001';
/** The capture POST /api/face-comparison stored the live face as. */
export const A_FACE_CAPTURE_ID = '0b5c2f0e-7d5e-4c61-9a55-3c1f8c0de002';

/** The typed reading the server would store for these fields (every field confirmed). */
function aReading(type: OcrType, fields: Record<string, unknown>): OcrResponse['reading'] {
  if (type === 'face') return null;
  const shape = READING_SCHEMAS[type].shape.fields.shape as Record<string, z.ZodType>;
  const typed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    const field = { value, confidence: 0.9, source: 'ocr' };
    // What the converter on the server would keep: known fields of the right kind only.
    if (shape[name]?.safeParse(field).success) typed[name] = field;
  }
  return ReadingSchema.parse({ type, fields: typed, uncertain: [] });
}

/** A successful read of `type` with these fields, as POST /api/ocr answers it. */
export function anOcrRead(
  type: OcrType,
  fields: Record<string, unknown>,
  overrides: Partial<OcrResponse> = {},
): OcrResponse {
  return {
    ok: true,
    type,
    extractedText: JSON.stringify(fields),
    text: '',
    fields,
    source: 'ocr',
    confidence: 0.9,
    captureId: A_CAPTURE_ID,
    // The server's reading and its top-level plate come from one read: a plate given as an
    // override is in the reading too.
    reading: aReading(type, {
      ...fields,
      ...(overrides.plateNumber !== undefined ? { plateNumber: overrides.plateNumber } : {}),
      ...(overrides.displayPlate !== undefined ? { displayPlate: overrides.displayPlate } : {}),
    }),
    ...overrides,
  };
}

/** A read where the image was fine but nothing usable was found. */
export function anEmptyRead(type: OcrType, message = 'Nothing found.'): OcrResponse {
  return {
    ok: false,
    type,
    extractedText: '',
    text: '',
    fields: {},
    source: null,
    confidence: 0,
    message,
    captureId: A_CAPTURE_ID,
    reading: null,
  };
}

export function aFaceComparison(
  matchScore: number,
  overrides: Partial<FaceComparisonResponse> = {},
): FaceComparisonResponse {
  return {
    matchScore,
    threshold: 70,
    decision: matchScore >= 70 ? 'match' : 'no_match',
    faces: { live: { x: 10, y: 10, width: 100, height: 120 }, reference: null },
    liveness: 0.91,
    antispoof: { gating: false, threshold: 0.5, passed: true },
    comparisonId: '5b0f3c1e-6a7d-4e2b-9c4f-0d1e2f3a4b5c',
    image1CaptureId: A_FACE_CAPTURE_ID,
    ...overrides,
  };
}

type Answer<T> = T | Response | (() => T | Response | Promise<T | Response>);

async function answer<T>(value: Answer<T>, status = 200): Promise<Response> {
  const resolved =
    typeof value === 'function'
      ? await (value as () => T | Response | Promise<T | Response>)()
      : value;
  return resolved instanceof Response
    ? resolved
    : HttpResponse.json(resolved as object, { status });
}

export type RecordedRequest = {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
};

/**
 * An in-memory stand-in for the gate endpoints (approved vehicles, documents, entries, dashboard,
 * truck list, weighbridge tickets), typed by the contracts. Reads and face comparisons answer what
 * the test sets with `onOcr` and `onFaceComparison`. `requests` records what the app sent.
 */
export function createGateApi(
  initial: {
    vehicles?: ApprovedVehicle[];
    trucks?: TruckListEntry[];
    tickets?: WeighbridgeTicket[];
    dashboard?: Dashboard;
    /** The linked driver's induction the plate lookup reports, by plate; unlinked without one. */
    inductions?: Record<string, InductionValidity>;
  } = {},
) {
  let vehicles = [...(initial.vehicles ?? [])];
  let tickets = [...(initial.tickets ?? [])];
  const entries: EntryLog[] = [];
  const requests: RecordedRequest[] = [];
  const ocrAnswers = new Map<OcrType, Answer<OcrResponse>>();
  let faceAnswer: Answer<FaceComparisonResponse> = () =>
    apiError(500, 'INTERNAL', 'No face comparison configured');
  let grantAnswer: Answer<EntryLog> | null = null;

  const record = async (request: Request) => {
    const text = await request.clone().text();
    const entry: RecordedRequest = {
      method: request.method,
      path: new URL(request.url).pathname,
      body: text ? (JSON.parse(text) as unknown) : undefined,
      headers: Object.fromEntries(request.headers.entries()),
    };
    requests.push(entry);
    return entry;
  };
  const findByPlate = (plate: string) =>
    vehicles.find((vehicle) => vehicle.plateNumber === normalisePlate(plate));
  const created = (id: string = crypto.randomUUID()) => HttpResponse.json({ id }, { status: 201 });

  const handlers = [
    http.get('/api/approved-vehicles', () => HttpResponse.json(vehicles)),
    http.post<never, CreateApprovedVehicleBody>('/api/approved-vehicles', async ({ request }) => {
      const { body } = await record(request);
      const input = body as CreateApprovedVehicleBody;
      const plateNumber = normalisePlate(input.plateNumber);
      if (findByPlate(plateNumber)) {
        return apiError(409, 'CONFLICT', `Vehicle ${plateNumber} is already registered.`);
      }
      const vehicle = anApprovedVehicle({
        plateNumber,
        driverName: input.driverName,
        driverLicense: input.driverLicense ?? null,
        company: input.company ?? null,
        approvedUntil: input.approvedUntil ? input.approvedUntil.slice(0, 10) : null,
        driverPhoto: input.driverPhoto ? '/api/images/tenant/driver-photos/new.jpg' : null,
        trailers: (input.trailers ?? []).map((trailer) => ({
          plateNumber: normalisePlate(trailer.plateNumber),
          discNumber: trailer.discNumber ?? null,
          discExpiry: trailer.discExpiry ?? null,
        })),
      });
      vehicles = [vehicle, ...vehicles];
      return HttpResponse.json(vehicle, { status: 201 });
    }),
    http.put<{ id: string }>('/api/approved-vehicles/:id/trailers', async ({ request, params }) => {
      const { body } = await record(request);
      const vehicle = vehicles.find((candidate) => candidate.id === params.id);
      if (!vehicle) return apiError(404, 'NOT_FOUND', 'Vehicle not found.');
      const updated = { ...vehicle, trailers: (body as { trailers: Trailer[] }).trailers };
      vehicles = vehicles.map((candidate) => (candidate.id === params.id ? updated : candidate));
      return HttpResponse.json(updated);
    }),
    http.delete<{ id: string }>('/api/approved-vehicles/:id', async ({ request, params }) => {
      await record(request);
      if (!vehicles.some((vehicle) => vehicle.id === params.id)) {
        return apiError(404, 'NOT_FOUND', 'Vehicle not found.');
      }
      vehicles = vehicles.filter((vehicle) => vehicle.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
    http.get<{ plate: string }>(
      '/api/approved-vehicles/plate/:plate',
      async ({ request, params }) => {
        await record(request);
        const vehicle = findByPlate(params.plate);
        if (!vehicle) return apiError(404, 'NOT_FOUND', 'Vehicle not found.');
        const lookup: PlateLookup = {
          id: vehicle.id,
          plateNumber: vehicle.plateNumber,
          isActive: vehicle.isActive,
          driverPhoto: vehicle.driverPhoto,
          driverName: vehicle.driverName,
          company: vehicle.company,
          hasFaceEnrolment: vehicle.hasFaceEnrolment,
          pendingApproval: vehicle.pendingApproval === 'registration',
          induction: initial.inductions?.[vehicle.plateNumber] ?? null,
        };
        return HttpResponse.json(lookup);
      },
    ),
    http.get<{ plate: string }>('/api/verify-vehicle/:plate', async ({ request, params }) => {
      await record(request);
      const vehicle = findByPlate(params.plate);
      const result: VerifyVehicle = {
        approved: Boolean(vehicle?.isActive),
        plateNumber: normalisePlate(params.plate),
        reason: !vehicle ? 'not_registered' : vehicle.isActive ? 'approved' : 'expired',
        vehicle: vehicle ?? null,
      };
      return HttpResponse.json(result);
    }),
    http.post('/api/ocr', async ({ request }) => {
      const { body } = await record(request);
      const type = (body as { type: OcrType }).type;
      const configured = ocrAnswers.get(type);
      if (!configured) return apiError(500, 'INTERNAL', `No ${type} read configured`);
      return answer(configured);
    }),
    http.post('/api/face-comparison', async ({ request }) => {
      await record(request);
      return answer(faceAnswer);
    }),
    http.post('/api/auto-gate/grant-entry', async ({ request }) => {
      const { body } = await record(request);
      if (grantAnswer) return answer(grantAnswer, 201);
      const input = body as GrantEntryBody;
      const entry = anEntryLog({
        category: input.category ?? 'visitor',
        plateNumber: normalisePlate(input.plateNumber),
        faceVerified: input.faceVerified ?? false,
        matchScore: input.matchScore ?? null,
        vehicleApproved: input.vehicleApproved ?? false,
        driverName: input.driverName ?? null,
        driverSurname: input.driverSurname ?? null,
        driverIdNumber: input.driverIdNumber ?? null,
        entryGranted: input.entryGranted ?? true,
        refusalReason:
          input.entryGranted === false ? (input.refusalReason ?? 'guard_refused') : null,
        warnings: (input.warnings ?? []).map((message) => ({
          code: 'guard_note' as const,
          severity: 'info' as const,
          message,
          fields: [],
        })),
      });
      entries.push(entry);
      return HttpResponse.json(entry, { status: 201 });
    }),
    ...['licence-disc', 'identity-document', 'drivers-licence', 'passport'].map((path) =>
      http.post(`/api/${path}`, async ({ request }) => {
        await record(request);
        return created();
      }),
    ),
    http.post('/api/weighbridge-ticket', async ({ request }) => {
      const { body } = await record(request);
      const input = body as Partial<WeighbridgeTicket>;
      const ticket = aTicket({
        ticketNumber: input.ticketNumber ?? null,
        vehicleReg: input.vehicleReg ?? null,
        product: input.product ?? null,
        tareWeight: input.tareWeight ?? null,
        grossWeight: input.grossWeight ?? null,
        netWeight: input.netWeight ?? null,
        transporter: input.transporter ?? null,
      });
      tickets = [ticket, ...tickets];
      return created(ticket.id);
    }),
    http.get('/api/weighbridge-tickets', () => HttpResponse.json(tickets)),
    http.get('/api/dashboard', () => HttpResponse.json(initial.dashboard ?? aDashboard())),
    http.get('/api/truck-list', () => {
      const trucks = initial.trucks ?? [];
      return HttpResponse.json(trucks, { headers: truckCountHeaders(trucks) });
    }),
  ];

  return {
    handlers,
    requests,
    entries,
    vehicles: () => vehicles,
    /** What POST /api/ocr answers for reads of `type`. */
    onOcr(type: OcrType, value: Answer<OcrResponse>) {
      ocrAnswers.set(type, value);
    },
    onFaceComparison(value: Answer<FaceComparisonResponse>) {
      faceAnswer = value;
    },
    onGrantEntry(value: Answer<EntryLog>) {
      grantAnswer = value;
    },
    sent: (method: string, path: string) =>
      requests.filter((request) => request.method === method && request.path === path),
  };
}

/** The truck list's card headers as the server counts them, for a single page holding every read. */
function truckCountHeaders(trucks: TruckListEntry[]): Record<string, string> {
  const today = new Date().toDateString();
  return {
    [TRUCK_LIST_COUNT_HEADERS.total]: String(trucks.length),
    [TRUCK_LIST_COUNT_HEADERS.withOrderNumber]: String(
      trucks.filter((truck) => truck.truckNumber?.trim()).length,
    ),
    [TRUCK_LIST_COUNT_HEADERS.todaysArrivals]: String(
      trucks.filter((truck) => new Date(truck.timestamp).toDateString() === today).length,
    ),
  };
}

/** A promise to resolve by hand, to hold a response and observe the state in between. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
