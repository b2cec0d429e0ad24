import { roleMay } from '@boomgate/contracts/roles';

import { AlertSettingsSection } from '@/features/alerts/components/alert-settings-section';
import { useSession } from '@/features/auth/api/get-session';
import { RoleGate } from '@/features/auth/components/role-gate';
import { SettingsPage } from '@/features/settings/components/settings-form';
import { WatchlistSection } from '@/features/watchlist/components/watchlist-section';

export default function SettingsRoute() {
  const { user } = useSession();
  return (
    <RoleGate
      action="viewSettings"
      title="Settings"
      reason="Only administrators and back office see the settings."
    >
      <SettingsPage canEdit={roleMay(user.role, 'editSettings')} />
      {roleMay(user.role, 'manageAlerts') && (
        <div className="mx-auto mt-6 w-full max-w-3xl">
          <AlertSettingsSection />
        </div>
      )}
      {/* Issue 21: who may enter — the watchlist. */}
      <div className="mx-auto mt-6 w-full max-w-3xl">
        <WatchlistSection canEdit={roleMay(user.role, 'editSettings')} />
      </div>
    </RoleGate>
  );
}
