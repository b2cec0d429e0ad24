import { Link } from 'wouter';

import { roleMay } from '@boomgate/contracts/roles';

import { AlertSettingsSection } from '@/features/alerts/components/alert-settings-section';
import { paths } from '@/config/paths';
import { useSession } from '@/features/auth/api/get-session';
import { RoleGate } from '@/features/auth/components/role-gate';
import { DocumentRulesSection } from '@/features/document-rules/components/document-rules-section';
import { OverridePinsSection } from '@/features/override-pins/components/override-pins-section';
import { SettingsPage } from '@/features/settings/components/settings-form';
import { WatchlistSection } from '@/features/watchlist/components/watchlist-section';
import { useTranslation } from '@/lib/i18n';

export default function SettingsRoute() {
  const { t } = useTranslation('settings');
  const { user } = useSession();
  const canEdit = roleMay(user.role, 'editSettings');
  return (
    <RoleGate action="viewSettings" title={t('title')} reason={t('gateReason')}>
      {canEdit ? (
        <p className="mx-auto w-full max-w-4xl text-sm">
          <Link className="underline" href={paths.sitesSettings}>
            {t('sitesLink')}
          </Link>
        </p>
      ) : null}
      <SettingsPage canEdit={canEdit} />
      {roleMay(user.role, 'manageAlerts') && (
        <div className="mx-auto mt-6 w-full max-w-3xl">
          <AlertSettingsSection />
        </div>
      )}
      {/* Issue 21: who may enter — the document rules the server decides by. */}
      <div className="mx-auto mt-6 w-full max-w-3xl">
        <DocumentRulesSection canEdit={canEdit} />
      </div>
      {/* Issue 21: who may enter — the watchlist. */}
      <div className="mx-auto mt-6 w-full max-w-3xl">
        <WatchlistSection canEdit={canEdit} />
      </div>
      {/* Issue 21: supervisors issue one-time PINs a guard overrides a refusal with. */}
      {roleMay(user.role, 'overrideEntries') && (
        <div className="mx-auto mt-6 w-full max-w-3xl">
          <OverridePinsSection canEdit={canEdit} />
        </div>
      )}
    </RoleGate>
  );
}
