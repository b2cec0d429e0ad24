import { Alert, AlertDescription } from '@/components/ui/alert';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen } from '@/components/ui/spinner';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useSettings } from '../api/settings';

import { GuardDevices } from './guard-devices';
import { SettingsEditor } from './settings-editor';

/** /settings: the organization's settings (administrators edit, back office reads). */
export function SettingsPage({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('settings');
  const settings = useSettings();
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader title={t('title')} description={t('description')} />
      {settings.isPending ? (
        <LoadingScreen />
      ) : settings.isError ? (
        <Alert variant="destructive">
          <AlertDescription>{getErrorMessage(settings.error, t('loadFailed'))}</AlertDescription>
        </Alert>
      ) : (
        <SettingsEditor settings={settings.data} canEdit={canEdit} />
      )}
      {canEdit && <GuardDevices />}
    </div>
  );
}
