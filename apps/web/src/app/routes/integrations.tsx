import { Alert, AlertDescription } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { useSession } from '@/features/auth/api/get-session';
import { IntegrationsSettings } from '@/features/integrations/components/integrations-settings';

export default function IntegrationsRoute() {
  const { user } = useSession();
  if (user.role !== 'tenant_admin' && user.role !== 'super_admin') {
    return (
      <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
        <PageHeader title="Integrations" />
        <Alert variant="destructive">
          <AlertDescription>
            Only tenant and super administrators manage integrations.
          </AlertDescription>
        </Alert>
      </div>
    );
  }
  return <IntegrationsSettings />;
}
