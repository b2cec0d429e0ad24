import { ArrowLeftIcon, DownloadIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';

import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { saveBlob } from '@/lib/save-blob';

import { downloadDriversExport } from '../api/company-onboarding';

import { BulkImport } from './bulk-import';
import { IndividualDriverForm } from './individual-driver-form';

/**
 * Spec §2 company onboarding: a transport company adds its drivers and vehicles, in bulk from a
 * CSV/XLSX file or one at a time. Back goes to the onboarding chooser.
 */
export function CompanyOnboarding({ backHref }: { backHref: string }) {
  const { t } = useTranslation('onboarding');
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <PageHeader
        title={t('company.title')}
        description={t('company.description')}
        actions={
          <>
            <ExportDriversButton />
            <Button variant="outline" asChild>
              <Link href={backHref}>
                <ArrowLeftIcon aria-hidden />
                {t('company.back')}
              </Link>
            </Button>
          </>
        }
      />
      <Tabs defaultValue="bulk" className="gap-4">
        <TabsList>
          <TabsTrigger value="bulk">{t('company.bulkTab')}</TabsTrigger>
          <TabsTrigger value="individual">{t('company.individualTab')}</TabsTrigger>
        </TabsList>
        <Card>
          <CardContent>
            <TabsContent value="bulk">
              <BulkImport />
            </TabsContent>
            <TabsContent value="individual">
              <IndividualDriverForm />
            </TabsContent>
          </CardContent>
        </Card>
      </Tabs>
    </div>
  );
}

/**
 * Fetches the drivers CSV through the API client (so a 401 REAUTH_REQUIRED asks for the password
 * and tries again) and saves it as drivers.csv.
 */
function ExportDriversButton() {
  const { t } = useTranslation('onboarding');
  const [isExporting, setIsExporting] = useState(false);

  const handleExport = async () => {
    setIsExporting(true);
    try {
      saveBlob(await downloadDriversExport(), 'drivers.csv');
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t('company.exportFailed'),
        description: getErrorMessage(error, t('company.exportFailedFallback')),
      });
    } finally {
      setIsExporting(false);
    }
  };

  return (
    <Button variant="outline" disabled={isExporting} onClick={() => void handleExport()}>
      {isExporting ? <Spinner /> : <DownloadIcon aria-hidden />}
      {t('company.exportDrivers')}
    </Button>
  );
}
