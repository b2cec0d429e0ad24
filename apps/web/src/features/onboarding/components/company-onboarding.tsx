import { ArrowLeftIcon, DownloadIcon } from 'lucide-react';
import { Link } from 'wouter';

import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { apiUrl } from '@/lib/api-client';

import { DRIVERS_EXPORT_URL } from '../api/company-onboarding';

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
            <Button variant="outline" asChild>
              <a href={apiUrl(DRIVERS_EXPORT_URL)} download>
                <DownloadIcon aria-hidden />
                Export Drivers
              </a>
            </Button>
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
