import { PagePlaceholder } from '@/components/ui/page-placeholder';

export default function WeighbridgeRoute() {
  return (
    <PagePlaceholder
      title="Weighbridge Station"
      description="Scan a weighbridge ticket and review the extracted data."
    />
  );
}
