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
import { saveBlob } from '@/lib/save-blob';

import { downloadDriversExport } from '../api/company-onboarding';

import { BulkImport } from './bulk-import';
import { IndividualDriverForm } from './individual-driver-form';

/**
 * Spec §2 company onboarding: a transport company adds its drivers and vehicles, in bulk from a
 * CSV/XLSX file or one at a time. Back goes to the onboarding chooser.
 */
export function CompanyOnboarding({ backHref }: { backHref: string }) {
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <PageHeader
        title="Company Onboarding"
        description="Add your drivers and the vehicles they bring, in bulk or one at a time."
        actions={
          <>
            <ExportDriversButton />
            <Button variant="outline" asChild>
              <Link href={backHref}>
                <ArrowLeftIcon aria-hidden />
                Back
              </Link>
            </Button>
          </>
        }
      />
      <Tabs defaultValue="bulk" className="gap-4">
        <TabsList>
          <TabsTrigger value="bulk">Bulk Upload</TabsTrigger>
          <TabsTrigger value="individual">Individual</TabsTrigger>
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
  const [isExporting, setIsExporting] = useState(false);

  const handleExport = async () => {
    setIsExporting(true);
    try {
      saveBlob(await downloadDriversExport(), 'drivers.csv');
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Export Failed',
        description: getErrorMessage(error, 'The drivers could not be exported.'),
      });
    } finally {
      setIsExporting(false);
    }
  };

  return (
    <Button variant="outline" disabled={isExporting} onClick={() => void handleExport()}>
      {isExporting ? <Spinner /> : <DownloadIcon aria-hidden />}
      Export Drivers
    </Button>
  );
}
