import { useParams } from 'wouter';

import { PagePlaceholder } from '@/components/ui/page-placeholder';

export default function SafetyInductionRoute() {
  const { assignmentId } = useParams<{ assignmentId: string }>();

  return (
    <PagePlaceholder
      title="Safety Induction"
      description="Watch the safety video, then take the quiz."
    >
      <p className="text-sm text-muted-foreground">
        Assignment <span className="font-mono">{assignmentId}</span>
      </p>
    </PagePlaceholder>
  );
}
