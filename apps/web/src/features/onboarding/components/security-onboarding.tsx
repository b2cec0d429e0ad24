import { ArrowLeftIcon, ClipboardListIcon, QrCodeIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';

import { QrCodeImage } from '@/components/qr-code-image';
import { Trans, useTranslation } from '@/lib/i18n';

/**
 * Spec §2 security onboarding: a choice of QR or manual. The QR code opens this site's sign-in page
 * on the guard's phone (an offline site's address is hard to type); manual walks through the gate
 * workflow.
 */
export function SecurityOnboarding({
  backHref,
  workflowHref,
  usersHref,
  signInUrl,
}: {
  backHref: string;
  workflowHref: string;
  /** User Management, for those who may create users; otherwise the step is only described. */
  usersHref?: string;
  /** Absolute URL of this site's sign-in page, for the QR code. */
  signInUrl: string;
}) {
  const { t } = useTranslation('onboarding');
  const [isQrShown, setIsQrShown] = useState(false);
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader
        title={t('security.title')}
        description={t('security.description')}
        actions={
          <Button variant="outline" asChild>
            <Link href={backHref}>
              <ArrowLeftIcon aria-hidden />
              {t('security.back')}
            </Link>
          </Button>
        }
      />
      <p className="text-sm text-muted-foreground">
        {usersHref ? (
          <Trans
            t={t}
            i18nKey="security.createAccount"
            components={{
              users: (
                <Link
                  href={usersHref}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                />
              ),
            }}
          />
        ) : (
          <Trans
            t={t}
            i18nKey="security.adminCreatesAccount"
            components={{ users: <span className="font-medium" /> }}
          />
        )}
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <QrCodeIcon aria-hidden className="size-5 text-primary" />
              {t('security.qrTitle')}
            </CardTitle>
            <CardDescription>{t('security.qrDescription')}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {isQrShown ? (
              <div className="flex flex-col items-center gap-2">
                <QrCodeImage text={signInUrl} label={t('security.qrLabel', { url: signInUrl })} />
                <p className="break-all text-center font-mono text-xs text-muted-foreground">
                  {signInUrl}
                </p>
              </div>
            ) : (
              <Button type="button" onClick={() => setIsQrShown(true)}>
                <QrCodeIcon aria-hidden />
                {t('security.showQr')}
              </Button>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <ClipboardListIcon aria-hidden className="size-5 text-primary" />
              {t('security.manualTitle')}
            </CardTitle>
            <CardDescription>{t('security.manualDescription')}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild variant="outline" className="w-full">
              <Link href={workflowHref}>{t('security.startManual')}</Link>
            </Button>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
