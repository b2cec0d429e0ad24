import { Link } from 'wouter';

import { roleMay } from '@boomgate/contracts/roles';

import { paths } from '@/config/paths';
import { useSession } from '@/features/auth/api/get-session';
import { RoleGate } from '@/features/auth/components/role-gate';
import { SettingsPage } from '@/features/settings/components/settings-form';

export default function SettingsRoute() {
  const { user } = useSession();
  const canEdit = roleMay(user.role, 'editSettings');
  return (
    <RoleGate
      action="viewSettings"
      title="Settings"
      reason="Only administrators and back office see the settings."
    >
      {canEdit ? (
        <p className="mx-auto w-full max-w-4xl text-sm">
          <Link className="underline" href={paths.sitesSettings}>
            Sites and Gates
          </Link>
        </p>
      ) : null}
      <SettingsPage canEdit={canEdit} />
    </RoleGate>
  );
}
