import { useParams } from 'wouter';

import { SafetyInduction } from '@/features/induction/components/safety-induction';

export default function SafetyInductionRoute() {
  const { assignmentId } = useParams<{ assignmentId: string }>();
  return <SafetyInduction assignmentId={assignmentId} />;
}
