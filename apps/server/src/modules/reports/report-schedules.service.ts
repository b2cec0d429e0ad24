import { z } from 'zod';

import type {
  ReportSchedule,
  ReportSummary,
  UpdateReportSchedule,
} from '@boomgate/contracts/reports';

import type { AuditService } from '@/modules/audit';
import type { EmailChannel } from '@/modules/alerts';
import type { Actor } from '@/modules/sessions';
import type { SitesRepository, SitesService } from '@/modules/sites';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';
import { enqueueJob } from '@/platform/jobs';

import { nextSendAt, reportPeriod } from './report-schedule';
import type { ReportSchedulesRepository } from './report-schedules.repository';
import { reportPdf } from './report-pdf';
import { reportWorkbook } from './report-workbook';
import type { ReportsService } from './reports.service';

/** One scheduled e-mail: the tenant and the site days it covers. Retried on an SMTP failure. */
export const ReportEmailJob = {
  name: 'reports.email',
  maxAttempts: 5,
  payload: z.object({
    tenantId: z.uuid(),
    frequency: z.enum(['daily', 'weekly']),
    from: z.iso.date(),
    to: z.iso.date(),
    /** The site whose report it is (its days cut in its timezone); absent or null: every site. */
    siteId: z.uuid().nullable().optional(),
  }),
} as const;
export type ReportEmailPayload = z.infer<typeof ReportEmailJob.payload>;

/** Tenants looked at per run of the scan; the rest are due again on the next run. */
const SCAN_BATCH = 100;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const percent = (rate: number | null) =>
  rate === null ? 'n/a' : `${Math.round(rate * 1000) / 10}%`;

/** The e-mail's body: the headline figures, the workbook holding the rest. */
export function reportEmailText(
  report: ReportSummary,
  siteName?: string,
  format: ReportSchedule['format'] = 'xlsx',
): string {
  const { totals, rates, turnaround, weighbridge } = report;
  const minutes = (value: number | null) => (value === null ? 'n/a' : `${Math.round(value)} min`);
  return [
    `Gate report for ${report.from === report.to ? report.from : `${report.from} to ${report.to}`} (${report.timeZone}), ${siteName ? `site ${siteName}` : 'every site'}.`,
    '',
    `Entries: ${totals.entries} (granted ${totals.granted}, refused ${totals.refused})`,
    `Approval rate: ${percent(rates.approval)}; face verified: ${percent(rates.faceVerification)}; manual corrections: ${percent(rates.manualCorrection)}`,
    `Turnaround: median ${minutes(turnaround.medianMinutes)}, 90% within ${minutes(turnaround.p90Minutes)} (${turnaround.visits} visits)`,
    `Weighbridge: ${weighbridge.loads} loads, ${weighbridge.netMassKg} kg net; ${weighbridge.overloaded} of ${weighbridge.overloadChecked} checked loads over the GVM`,
    '',
    `The attached ${format === 'pdf' ? 'PDF' : 'workbook'} holds the figures per day, hour, reason, transporter and gate.`,
  ].join('\n');
}

/**
 * Issue 23: a tenant admin's scheduled report e-mail. The `reports.send-due` scan queues one
 * `reports.email` job per due tenant and moves the schedule on in the same transaction; the job
 * builds the report from the hourly counts and sends it through the alerts' SMTP channel.
 */
export function createReportSchedulesService({
  database,
  repository,
  audit,
  clock,
  email,
  reports,
  sites,
  siteRows,
  log = () => undefined,
}: {
  database: Pick<Database, 'withTenant' | 'withoutTenant'>;
  repository: ReportSchedulesRepository;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  email: Pick<EmailChannel, 'isConfigured' | 'send'>;
  reports: Pick<ReportsService, 'tenantSummary'>;
  /** The actor's view of sites: a schedule names only a site its administrator can see. */
  sites: Pick<SitesService['inTransaction'], 'visibleSite'>;
  siteRows: Pick<SitesRepository, 'findSite'>;
  log?: (message: string) => void;
}) {
  /** The site a schedule names (its timezone cuts the days), or null: every site in SAST. */
  const siteOf = async (tx: DbExecutor, tenantId: string, siteId: string | null | undefined) =>
    siteId ? await siteRows.findSite(tx, tenantId, siteId) : null;

  return {
    get: (actor: Actor): Promise<ReportSchedule> =>
      database.withTenant(actor.tenantId, async (tx) => {
        const row = await repository.find(tx, actor.tenantId);
        if (!row)
          return {
            frequency: 'off',
            format: 'xlsx',
            recipients: [],
            siteId: null,
            nextSendAt: null,
          };
        return {
          frequency: row.frequency,
          format: row.format,
          recipients: row.recipients,
          siteId: row.siteId,
          nextSendAt: row.nextSendAt.toISOString(),
        };
      }),

    update: (actor: Actor, body: UpdateReportSchedule, ip?: string): Promise<ReportSchedule> =>
      database.withTenant(actor.tenantId, async (tx) => {
        const now = clock.now();
        const recipients = [...new Set(body.recipients.map((r) => r.trim().toLowerCase()))];
        const format = body.format ?? 'xlsx';
        // Omitted: the site stays as it was; a site outside the administrator's is not found.
        const siteId =
          body.siteId === undefined
            ? ((await repository.find(tx, actor.tenantId))?.siteId ?? null)
            : body.siteId;
        const site = siteId ? await sites.visibleSite(tx, actor, siteId) : null;
        let next: Date | null = null;
        if (body.frequency === 'off') {
          await repository.delete(tx, actor.tenantId);
        } else {
          next = nextSendAt(body.frequency, now, site?.timezone);
          await repository.upsert(tx, {
            tenantId: actor.tenantId,
            frequency: body.frequency,
            format,
            recipients,
            siteId,
            nextSendAt: next,
            updatedAt: now,
            updatedBy: actor.userId,
          });
        }
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'reports.schedule-changed',
          targetType: 'report_schedule',
          ip,
          details: {
            frequency: body.frequency,
            format,
            recipients: recipients.length,
            ...(siteId && body.frequency !== 'off' ? { siteId } : {}),
          },
        });
        return {
          frequency: body.frequency,
          format,
          recipients: body.frequency === 'off' ? [] : recipients,
          siteId: body.frequency === 'off' ? null : siteId,
          nextSendAt: next?.toISOString() ?? null,
        };
      }),

    /** The scan: queue each due tenant's e-mail once and schedule its next one. */
    async queueDue(): Promise<number> {
      const now = clock.now();
      const tenants = await database.withoutTenant((tx) =>
        repository.listDueTenants(tx, now, SCAN_BATCH),
      );
      let queued = 0;
      for (const tenantId of tenants) {
        queued += await database.withTenant(tenantId, async (tx) => {
          const row = await repository.lockDue(tx, tenantId, now);
          if (!row) return 0;
          const timeZone = (await siteOf(tx, tenantId, row.siteId))?.timezone;
          const period = reportPeriod(row.frequency, row.nextSendAt, timeZone);
          await enqueueJob(
            tx,
            ReportEmailJob,
            { tenantId, frequency: row.frequency, ...period, siteId: row.siteId },
            {
              jobKey: `reports.email:${tenantId}:${row.siteId ?? 'all'}:${row.frequency}:${period.to}`,
            },
          );
          await repository.setNextSendAt(tx, tenantId, nextSendAt(row.frequency, now, timeZone));
          return 1;
        });
      }
      return queued;
    },

    /** One e-mail; a throw is a failed attempt (the queue retries). */
    async sendEmail({ tenantId, frequency, from, to, siteId }: ReportEmailPayload): Promise<void> {
      const { row, site } = await database.withTenant(tenantId, async (tx) => ({
        row: await repository.find(tx, tenantId),
        site: await siteOf(tx, tenantId, siteId),
      }));
      // Turned off (or emptied) since it was queued: nothing to send.
      if (!row || row.recipients.length === 0) return;
      if (!email.isConfigured) {
        log(`report e-mail of tenant ${tenantId} not sent: SMTP_URL is not set`);
        return;
      }
      // The site was queued by name: a site gone since is an error, never every site instead.
      if (siteId && !site) throw new Error(`site ${siteId} of the scheduled report is not found`);
      const report = await reports.tenantSummary(tenantId, { from, to }, site ?? undefined);
      const days = from === to ? from : `${from} to ${to}`;
      const subject = `Boomgate ${frequency} report: ${site ? `${site.name}, ` : ''}${days}`;
      // The format as saved when it is sent (a change since it was queued applies at once).
      const attachment =
        row.format === 'pdf'
          ? {
              filename: `report-${from}-to-${to}.pdf`,
              content: await reportPdf(report, subject),
              contentType: 'application/pdf',
            }
          : {
              filename: `report-${from}-to-${to}.xlsx`,
              content: await reportWorkbook(report),
              contentType: XLSX_TYPE,
            };
      await email.send({
        to: row.recipients,
        subject,
        text: reportEmailText(report, site?.name, row.format),
        attachments: [attachment],
      });
      await database.withTenant(tenantId, (tx) =>
        audit.record(tx, {
          tenantId,
          actorUserId: null,
          action: 'reports.emailed',
          targetType: 'report_schedule',
          details: {
            frequency,
            from,
            to,
            format: row.format,
            recipients: row.recipients.length,
            ...(siteId ? { siteId } : {}),
          },
        }),
      );
    },
  };
}

export type ReportSchedulesService = ReturnType<typeof createReportSchedulesService>;
