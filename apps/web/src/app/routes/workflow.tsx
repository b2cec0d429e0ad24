import { PagePlaceholder } from '@/components/ui/page-placeholder';

export default function WorkflowRoute() {
  return (
    <PagePlaceholder title="Gate Workflow" description="Manual security onboarding at the gate." />
  );
}
