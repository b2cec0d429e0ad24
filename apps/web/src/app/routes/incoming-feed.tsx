import { PagePlaceholder } from '@/components/ui/page-placeholder';

export default function IncomingFeedRoute() {
  return (
    <PagePlaceholder
      title="Incoming Feed"
      description="Vehicle entries sent by external systems, waiting to be completed."
    />
  );
}
