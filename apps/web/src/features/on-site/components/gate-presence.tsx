import { Badge } from '@/components/ui/badge';
import { useTranslation } from '@/lib/i18n';

import { useGateBarrier } from '../api/gate-barrier';

/**
 * The gate's barrier agent presence (issue 17): connected, or offline since its last contact.
 * Nothing for a gate without an agent token (no barrier to drive).
 */
export function GatePresence({ gateId }: { gateId: string }) {
  const { t } = useTranslation('onSite');
  const barrier = useGateBarrier(gateId);
  const status = barrier.data;
  if (!status?.hasToken) return null;
  const connected = status.online || status.connected;
  const lastSeen = status.lastSeenAt ? new Date(status.lastSeenAt).toLocaleString() : null;
  return (
    <Badge
      data-testid="gate-presence"
      data-connected={connected}
      variant={connected ? 'secondary' : 'destructive'}
      title={lastSeen ? t('presence.lastSeen', { when: lastSeen }) : undefined}
    >
      {connected
        ? t('presence.online')
        : lastSeen
          ? t('presence.offline', { when: lastSeen })
          : t('presence.never')}
    </Badge>
  );
}
