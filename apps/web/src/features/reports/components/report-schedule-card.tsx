import { useEffect } from 'react';
import { useForm } from 'react-hook-form';

import {
  REPORT_FORMATS,
  type ReportSchedule,
  UpdateReportScheduleSchema,
} from '@boomgate/contracts/reports';

import { SelectField } from '@/components/select-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useSites } from '@/lib/api/sites';
import { getErrorMessage } from '@/lib/api-client';
import { contractMessage, useTranslation } from '@/lib/i18n';

import { useReportSchedule, useUpdateReportSchedule } from '../api/report-schedule';

type ScheduleForm = {
  frequency: ReportSchedule['frequency'];
  format: ReportSchedule['format'];
  /** A site's id, or ALL_SITES (a Radix select item cannot be empty). */
  site: string;
  recipients: string;
};

const ALL_SITES = 'all';

const toForm = (schedule: ReportSchedule): ScheduleForm => ({
  frequency: schedule.frequency,
  format: schedule.format,
  site: schedule.siteId ?? ALL_SITES,
  recipients: schedule.recipients.join(', '),
});

/**
 * Issue 23: an administrator's scheduled report e-mail (daily or weekly, XLSX or PDF, one site or
 * every site), sent through the same SMTP channel as alerts. The server checks the addresses and
 * the site and works out the next send.
 */
export function ReportScheduleCard() {
  const { t } = useTranslation('reports');
  const schedule = useReportSchedule();
  const update = useUpdateReportSchedule();
  const sites = useSites();
  const form = useForm<ScheduleForm>({
    defaultValues: { frequency: 'off', format: 'xlsx', site: ALL_SITES, recipients: '' },
  });
  const { reset } = form;
  useEffect(() => {
    if (schedule.data) reset(toForm(schedule.data));
  }, [schedule.data, reset]);

  const save = (values: ScheduleForm) => {
    const parsed = UpdateReportScheduleSchema.safeParse({
      frequency: values.frequency,
      format: values.format,
      siteId: values.site === ALL_SITES ? null : values.site,
      recipients: values.recipients
        .split(/[\s,;]+/)
        .map((address) => address.trim())
        .filter(Boolean),
    });
    if (!parsed.success) {
      form.setError('recipients', {
        message: contractMessage(parsed.error.issues[0]?.message),
      });
      return;
    }
    update.mutate(parsed.data);
  };

  const frequencyOptions = (['off', 'daily', 'weekly'] as const).map((value) => ({
    value,
    label: t(`schedule.frequencies.${value}`),
  }));
  const formatOptions = REPORT_FORMATS.map((value) => ({
    value,
    label: t(`schedule.formats.${value}`),
  }));
  const siteOptions = [
    { value: ALL_SITES, label: t('schedule.allSites') },
    ...(sites.data ?? []).map((site) => ({ value: site.id, label: site.name })),
  ];
  const next = update.data?.nextSendAt ?? schedule.data?.nextSendAt ?? null;

  return (
    <Card>
      <CardHeader>
        <CardTitle level={2}>{t('schedule.title')}</CardTitle>
        <CardDescription>{t('schedule.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {schedule.isPending ? (
          <Spinner />
        ) : schedule.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {getErrorMessage(schedule.error, t('schedule.loadFailed'))}
          </p>
        ) : (
          <form
            aria-label={t('schedule.title')}
            className="grid gap-4 sm:grid-cols-3"
            onSubmit={(event) => void form.handleSubmit(save)(event)}
          >
            <SelectField
              control={form.control}
              name="frequency"
              id="schedule-frequency"
              label={t('schedule.frequency')}
              options={frequencyOptions}
            />
            <SelectField
              control={form.control}
              name="format"
              id="schedule-format"
              label={t('schedule.format')}
              options={formatOptions}
            />
            <SelectField
              control={form.control}
              name="site"
              id="schedule-site"
              label={t('schedule.site')}
              options={siteOptions}
            />
            <Field
              id="schedule-recipients"
              label={t('schedule.recipients')}
              error={form.formState.errors.recipients?.message}
              className="sm:col-span-3"
            >
              <Input
                id="schedule-recipients"
                placeholder="manager@example.com, ops@example.com"
                {...form.register('recipients')}
              />
            </Field>
            <div className="flex flex-col gap-2 sm:col-span-3">
              <Button type="submit" className="self-start" disabled={update.isPending}>
                {update.isPending && <Spinner />}
                {t('schedule.save')}
              </Button>
              {update.isError && (
                <p role="alert" className="text-sm text-destructive">
                  {getErrorMessage(update.error, t('schedule.saveFailed'))}
                </p>
              )}
              <p
                className="text-sm text-muted-foreground"
                aria-live="polite"
                data-testid="schedule-next"
              >
                {next
                  ? t('schedule.next', {
                      when: new Date(next).toLocaleString('en-ZA', {
                        timeZone: 'Africa/Johannesburg',
                      }),
                    })
                  : t('schedule.off')}
              </p>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
