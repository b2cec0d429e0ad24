import { useSearchParams } from 'wouter';

import { PagePlaceholder } from '@/components/ui/page-placeholder';

export default function PreArrivalRoute() {
  // Auto Gate sends a scanned plate along as ?plate=… (spec §2).
  const [searchParams] = useSearchParams();
  const plate = searchParams.get('plate');

  return (
    <PagePlaceholder
      title="Pre-Arrival Registration"
      description="Register an approved vehicle and its driver before they arrive."
    >
      {plate && (
        <p className="text-sm">
          Plate from Auto Gate: <span className="font-mono font-semibold">{plate}</span>
        </p>
      )}
    </PagePlaceholder>
  );
}
