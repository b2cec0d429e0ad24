import { Alert, AlertDescription } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { useSession } from '@/features/auth/api/get-session';
import { SettingsPage } from '@/features/settings/components/settings-form';

const EDITORS = new Set(['super_admin', 'tenant_admin']);

export default function SettingsRoute() {
  const { user } = useSession();
  if (user.role === 'security_guard') {
    return (
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
        <PageHeader title="Settings" />
        <Alert variant="destructive">
          <AlertDescription>Only administrators and back office see the settings.</AlertDescription>
        </Alert>
      </div>
    );
  }
  return <SettingsPage canEdit={EDITORS.has(user.role)} />;
}
