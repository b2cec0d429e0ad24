import { PagePlaceholder } from '@/components/ui/page-placeholder';

export default function ScanStationRoute() {
  return (
    <PagePlaceholder
      title="Document Scan Station"
      description="Scan documents at the gate, the weighbridge and the office."
    />
  );
}
