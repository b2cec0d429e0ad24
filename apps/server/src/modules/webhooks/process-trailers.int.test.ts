import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Reading } from '@boomgate/contracts/readings';
import { IncomingRequestCompletedEventSchema } from '@boomgate/contracts/webhooks';

import type { Actor } from '@/modules/sessions';
import { aJpegDataUrl } from '@/testing/images';
import { type TestApp, createTestApp } from '@/testing/test-app';
import { aCompletion, aTenantWithSecret, openedCallbacks, sendEntry } from '@/testing/webhooks';

/**
 * Issue 21: completing an incoming entry checks its trailers like the gate does. A trailer not on
 * the approved vehicle's rig, or a cited trailer disc that is expired or for another trailer,
 * refuses the completion (422, audited); a rig whose plates and discs check out completes, keeps
 * its combination, lists it in the feed and sends it with the callback.
 */
describe('POST /api/webhook/process-request/{id} with trailers (issue 21)', () => {
  let t: TestApp;
  let tenant: Awaited<ReturnType<typeof aTenantWithSecret>>;
  let references = 0;
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await aTenantWithSecret(t);
    const rig = await tenant.admin.post('/api/approved-vehicles', {
      plateNumber: 'HORSE2GP',
      driverName: 'Sipho Nkosi',
      trailers: [{ plateNumber: 'TR5GP', discExpiry: '2099-01-31' }, { plateNumber: 'TR6GP' }],
    });
    expect(rig.statusCode, rig.body).toBe(201);
  });
  afterAll(() => t.close());

  const anEntry = () =>
    sendEntry(t, tenant, { plateNumber: 'HORSE2GP', referenceNumber: `REF-RIG${++references}` });
  const aDisc = async (licenceNumber: string, dateOfExpiry: string, discNumber?: string) => {
    const saved = await tenant.admin.post('/api/licence-disc', {
      licenceNumber,
      dateOfExpiry,
      ...(discNumber ? { discNumber } : {}),
    });
    expect(saved.statusCode, saved.body).toBe(201);
    return saved.json<{ id: string }>().id;
  };
  const complete = (id: string, body: Record<string, unknown>) =>
    tenant.admin.post(
      `/api/webhook/process-request/${id}`,
      aCompletion({ plateNumber: 'HORSE2GP', ...body }),
    );
  /** The callback's body as stored in the outbox: the exact bytes every attempt sends. */
  const callbackOf = async (id: string) => {
    const rows = await openedCallbacks<{ body: string }>(
      t,
      `select tenant_id, body from webhook_deliveries where incoming_request_id = $1`,
      [id],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!.body;
  };
  const refusals = () =>
    t.ownerQuery<{ target_id: string; details: { refusalReason: string } }>(
      `select target_id, details from audit_events where tenant_id = $1 and action = 'incoming-request.refused'`,
      [tenant.admin.body.tenant.id],
    );

  it('completes a rig whose trailers and discs check out, and keeps the combination', async () => {
    const id = await anEntry();
    const disc = await aDisc('TR5GP', '2099-01-31');

    const response = await complete(id, {
      trailerPlates: ['tr 5 gp', 'TR6GP'],
      trailerLicenceDiscIds: [disc],
    });

    expect(response.statusCode, response.body).toBe(200);
    const [row] = await t.ownerQuery<{
      trailer_plates: string[];
      trailer_licence_disc_ids: string[];
    }>(`select trailer_plates, trailer_licence_disc_ids from incoming_requests where id = $1`, [
      id,
    ]);
    expect(row).toEqual({ trailer_plates: ['TR5GP', 'TR6GP'], trailer_licence_disc_ids: [disc] });
  });

  it('lists the stored trailers in the feed and sends them with the callback', async () => {
    const id = await anEntry();
    const disc = await aDisc('TR5GP', '2099-01-31', 'DISC-TR5');
    const response = await complete(id, {
      trailerPlates: ['TR6GP', 'TR5GP'],
      trailerLicenceDiscIds: [disc],
    });
    expect(response.statusCode, response.body).toBe(200);
    const trailers = [
      { plateNumber: 'TR6GP', licenceDiscId: null, discNumber: null, discExpiry: null },
      {
        plateNumber: 'TR5GP',
        licenceDiscId: disc,
        discNumber: 'DISC-TR5',
        discExpiry: '2099-01-31',
      },
    ];
    expect(response.json()).toMatchObject({
      trailerPlates: ['TR6GP', 'TR5GP'],
      trailerLicenceDiscIds: [disc],
      trailers,
    });

    const listed = (await tenant.admin.get('/api/webhook/pending-requests')).json<
      { id: string; trailerPlates: string[]; trailerLicenceDiscIds: string[] }[]
    >();
    expect(listed.find((entry) => entry.id === id)).toMatchObject({
      trailerPlates: ['TR6GP', 'TR5GP'],
      trailerLicenceDiscIds: [disc],
      trailers,
    });
    // An entry not processed yet lists none.
    const fresh = await anEntry();
    const feed = (await tenant.admin.get('/api/webhook/pending-requests')).json<
      { id: string; trailerPlates: string[]; trailerLicenceDiscIds: string[] }[]
    >();
    expect(feed.find((entry) => entry.id === fresh)).toMatchObject({
      trailerPlates: [],
      trailerLicenceDiscIds: [],
      trailers: [],
      warnings: [],
    });

    const event = IncomingRequestCompletedEventSchema.parse(JSON.parse(await callbackOf(id)));
    expect(event.data).toMatchObject({
      plateNumber: 'HORSE2GP',
      trailerPlates: ['TR6GP', 'TR5GP'],
      trailers,
    });
  });

  it('sends empty trailer lists with the callback of a rigid vehicle', async () => {
    const id = await anEntry();
    expect((await complete(id, {})).statusCode).toBe(200);
    const sent = JSON.parse(await callbackOf(id)) as { data: Record<string, unknown> };
    expect(sent.data).toMatchObject({ trailerPlates: [], trailers: [] });
  });

  it('refuses a trailer not on the rig with 422 and logs the refusal', async () => {
    const id = await anEntry();

    const response = await complete(id, { trailerPlates: ['OTHER9GP'] });

    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      error: {
        code: 'UNPROCESSABLE',
        message: "Entry refused: Trailer OTHER9GP is not on this vehicle's rig.",
      },
    });
    expect((await refusals()).find((audit) => audit.target_id === id)?.details).toMatchObject({
      refusalReason: 'rig_mismatch',
    });
    const feed = (await tenant.admin.get('/api/webhook/pending-requests')).json<
      { id: string; status: string }[]
    >();
    expect(feed.find((entry) => entry.id === id)?.status).toBe('Incomplete');
  });

  it('refuses an expired trailer disc, or one for a trailer not presented', async () => {
    const expired = await aDisc('TR5GP', '2020-01-31');
    const response = await complete(await anEntry(), {
      trailerPlates: ['TR5GP'],
      trailerLicenceDiscIds: [expired],
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.message).toBe(
      'Entry refused: Trailer disc TR5GP expired on 2020-01-31.',
    );

    const elsewhere = await aDisc('TR6GP', '2099-01-31');
    const notPresented = await complete(await anEntry(), {
      trailerPlates: ['TR5GP'],
      trailerLicenceDiscIds: [elsewhere],
    });
    expect(notPresented.statusCode).toBe(422);
    expect(notPresented.json().error.message).toContain('is not for a trailer presented');
  });

  /** A ticket read in the dialog: the capture POST /api/ocr would store, with this reading. */
  const aTicketCapture = async (
    trailerRegs: string[] | null,
    type: 'weighbridge' | 'id' = 'weighbridge',
  ) => {
    const actor = {
      tenantId: tenant.admin.body.tenant.id,
      userId: tenant.admin.body.user.id,
    } as Actor;
    const reading = {
      type,
      fields: trailerRegs
        ? { trailerRegs: { value: trailerRegs, confidence: 0.9, source: 'ocr' } }
        : {},
      uncertain: [],
    } as Reading;
    const { captureId } = await t.modules.captures.service.create(
      actor,
      { image: await aJpegDataUrl(), type },
      async () => ({ reading, result: null }),
    );
    return captureId;
  };

  it('warns when the ticket read in the dialog names a trailer the rig lacks, and completes', async () => {
    const id = await anEntry();
    const ticket = await aTicketCapture(['TR5GP', 'XX9GP']);

    const response = await complete(id, {
      trailerPlates: ['TR5GP'],
      weighbridgeTicketCaptureId: ticket,
    });

    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().warnings).toEqual([
      {
        code: 'ticket_trailer_unknown',
        message: "The weighbridge ticket names trailer XX9GP, which is not on this vehicle's rig.",
      },
    ]);
    const [audit] = await t.ownerQuery<{ details: { ruleOutcomes?: { code: string }[] } }>(
      `select details from audit_events where action = 'incoming-request.completed' and target_id = $1`,
      [id],
    );
    expect(audit?.details.ruleOutcomes).toEqual([
      expect.objectContaining({ verdict: 'warn', code: 'ticket_trailer_unknown' }),
    ]);
    // Stored on the entry (the feed lists it) and sent with the callback.
    const warnings = response.json().warnings;
    const listed = (await tenant.admin.get('/api/webhook/pending-requests')).json<
      { id: string; warnings: unknown }[]
    >();
    expect(listed.find((entry) => entry.id === id)?.warnings).toEqual(warnings);
    const callback = IncomingRequestCompletedEventSchema.parse(JSON.parse(await callbackOf(id)));
    expect(callback.data.warnings).toEqual(warnings);

    // A ticket naming only the rig's trailers (or none) warns of nothing.
    const clean = await complete(await anEntry(), {
      weighbridgeTicketCaptureId: await aTicketCapture(['TR5GP', 'TR6GP']),
    });
    expect(clean.statusCode, clean.body).toBe(200);
    expect(clean.json().warnings).toEqual([]);
    expect(JSON.parse(await callbackOf(clean.json().id)).data.warnings).toEqual([]);
    const none = await complete(await anEntry(), {
      weighbridgeTicketCaptureId: await aTicketCapture(null),
    });
    expect(none.json().warnings).toEqual([]);
  });

  it('answers a ticket capture that is not a weighbridge read, or unknown, with 400', async () => {
    const id = await anEntry();
    for (const captureId of [await aTicketCapture(null, 'id'), crypto.randomUUID(), 'nope']) {
      const response = await complete(id, { weighbridgeTicketCaptureId: captureId });
      expect(response.statusCode, captureId).toBe(400);
      expect(response.json().error.code).toBe('INVALID');
    }
  });

  it('answers bad trailer input and another tenant disc with 400', async () => {
    const id = await anEntry();
    const other = await t.registerTenant();
    const foreign = await other.post('/api/licence-disc', {
      licenceNumber: 'TR5GP',
      dateOfExpiry: '2099-01-31',
    });
    for (const body of [
      { trailerPlates: ['A1GP', 'A2GP', 'A3GP'] },
      { trailerPlates: ['TR5GP'], trailerLicenceDiscIds: ['not-a-uuid'] },
      { trailerPlates: ['TR5GP'], trailerLicenceDiscIds: [foreign.json<{ id: string }>().id] },
    ]) {
      const response = await complete(id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('INVALID');
    }
  });
});
