import { z } from 'zod';

import type {
  ReportSchedule,
  ReportSummary,
  UpdateReportSchedule,
} from '@boomgate/contracts/reports';

import type { AuditService } from '@/modules/audit';
import type { EmailChannel } from '@/modules/alerts';
import type { Actor } from '@/modules/sessions';
import type { Clock } from '@/platform/clock';
import type { Database } from '@/platform/db';
import { enqueueJob } from '@/platform/jobs';

import { nextSendAt, reportPeriod } from './report-schedule';
import type { ReportSchedulesRepository } from './report-schedules.repository';
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
  }),
} as const;
export type ReportEmailPayload = z.infer<typeof ReportEmailJob.payload>;

/** Tenants looked at per run of the scan; the rest are due again on the next run. */
const SCAN_BATCH = 100;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const percent = (rate: number | null) =>
  rate === null ? 'n/a' : `${Math.round(rate * 1000) / 10}%`;

/** The e-mail's body: the headline figures, the workbook holding the rest. */
export function reportEmailText(report: ReportSummary): string {
  const { totals, rates, turnaround, weighbridge } = report;
  const minutes = (value: number | null) => (value === null ? 'n/a' : `${Math.round(value)} min`);
  return [
    `Gate report for ${report.from === report.to ? report.from : `${report.from} to ${report.to}`} (${report.timeZone}), every site.`,
    '',
    `Entries: ${totals.entries} (granted ${totals.granted}, refused ${totals.refused})`,
    `Approval rate: ${percent(rates.approval)}; face verified: ${percent(rates.faceVerification)}; manual corrections: ${percent(rates.manualCorrection)}`,
    `Turnaround: median ${minutes(turnaround.medianMinutes)}, 90% within ${minutes(turnaround.p90Minutes)} (${turnaround.visits} visits)`,
    `Weighbridge: ${weighbridge.loads} loads, ${weighbridge.netMassKg} kg net; ${weighbridge.overloaded} of ${weighbridge.overloadChecked} checked loads over the GVM`,
    '',
    'The attached workbook holds the figures per day, hour, reason, transporter and gate.',
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
  log = () => undefined,
}: {
  database: Pick<Database, 'withTenant' | 'withoutTenant'>;
  repository: ReportSchedulesRepository;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
  email: Pick<EmailChannel, 'isConfigured' | 'send'>;
  reports: Pick<ReportsService, 'tenantSummary'>;
  log?: (message: string) => void;
}) {
  return {
    get: (actor: Actor): Promise<ReportSchedule> =>
      database.withTenant(actor.tenantId, async (tx) => {
        const row = await repository.find(tx, actor.tenantId);
        if (!row) return { frequency: 'off', format: 'xlsx', recipients: [], nextSendAt: null };
        return {
          frequency: row.frequency,
          format: row.format,
          recipients: row.recipients,
          nextSendAt: row.nextSendAt.toISOString(),
        };
      }),

    update: (actor: Actor, body: UpdateReportSchedule, ip?: string): Promise<ReportSchedule> =>
      database.withTenant(actor.tenantId, async (tx) => {
        const now = clock.now();
        const recipients = [...new Set(body.recipients.map((r) => r.trim().toLowerCase()))];
        const format = body.format ?? 'xlsx';
        let next: Date | null = null;
        if (body.frequency === 'off') {
          await repository.delete(tx, actor.tenantId);
        } else {
          next = nextSendAt(body.frequency, now);
          await repository.upsert(tx, {
            tenantId: actor.tenantId,
            frequency: body.frequency,
            format,
            recipients,
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
          details: { frequency: body.frequency, format, recipients: recipients.length },
        });
        return {
          frequency: body.frequency,
          format,
          recipients: body.frequency === 'off' ? [] : recipients,
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
          const period = reportPeriod(row.frequency, row.nextSendAt);
          await enqueueJob(
            tx,
            ReportEmailJob,
            { tenantId, frequency: row.frequency, ...period },
            { jobKey: `reports.email:${tenantId}:${row.frequency}:${period.to}` },
          );
          await repository.setNextSendAt(tx, tenantId, nextSendAt(row.frequency, now));
          return 1;
        });
      }
      return queued;
    },

    /** One e-mail; a throw is a failed attempt (the queue retries). */
    async sendEmail({ tenantId, frequency, from, to }: ReportEmailPayload): Promise<void> {
      const row = await database.withTenant(tenantId, (tx) => repository.find(tx, tenantId));
      // Turned off (or emptied) since it was queued: nothing to send.
      if (!row || row.recipients.length === 0) return;
      if (!email.isConfigured) {
        log(`report e-mail of tenant ${tenantId} not sent: SMTP_URL is not set`);
        return;
      }
      const report = await reports.tenantSummary(tenantId, { from, to });
      const content = await reportWorkbook(report);
      await email.send({
        to: row.recipients,
        subject: `Boomgate ${frequency} report: ${from === to ? from : `${from} to ${to}`}`,
        text: reportEmailText(report),
        attachments: [
          { filename: `report-${from}-to-${to}.xlsx`, content, contentType: XLSX_TYPE },
        ],
      });
      await database.withTenant(tenantId, (tx) =>
        audit.record(tx, {
          tenantId,
          actorUserId: null,
          action: 'reports.emailed',
          targetType: 'report_schedule',
          details: { frequency, from, to, recipients: row.recipients.length },
        }),
      );
    },
  };
}

export type ReportSchedulesService = ReturnType<typeof createReportSchedulesService>;
