import { Badge } from '@/components/ui/badge';

import { useGateBarrier } from '../api/gate-barrier';

/**
 * The gate's barrier agent presence (issue 17): connected, or offline since its last contact.
 * Nothing for a gate without an agent token (no barrier to drive).
 */
export function GatePresence({ gateId }: { gateId: string }) {
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
      title={lastSeen ? `Last seen ${lastSeen}` : undefined}
    >
      {connected
        ? 'Barrier online'
        : lastSeen
          ? `Barrier offline · last seen ${lastSeen}`
          : 'Barrier never connected'}
    </Badge>
  );
}
