import { PageHeader } from '@/components/ui/page-header';

import { EntryExportCard } from './entry-export-card';

/** Issue 23: the site manager's reports. Exports first; charts follow with sites and visits. */
export function ReportsPage() {
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader title="Reports" description="Exports of the gate's records." />
      <EntryExportCard />
    </div>
  );
}
