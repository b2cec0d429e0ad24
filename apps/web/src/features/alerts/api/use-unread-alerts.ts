import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

import { AlertStreamEventSchema } from '@boomgate/contracts/alerts';

import { env } from '@/config/env';

import { alertKeys } from './alerts';

/**
 * The bell's unread count, live: GET /api/alerts/stream (server-sent events) sends the count on
 * connect and on every change; EventSource reconnects by itself after a drop. Lists of alerts on
 * screen are refreshed when the count changes.
 */
export function useUnreadAlerts(isEnabled: boolean): number | null {
  const [unreadCount, setUnreadCount] = useState<number | null>(null);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!isEnabled || typeof EventSource === 'undefined') return;
    const source = new EventSource(`${env.API_ORIGIN}/api/alerts/stream`, {
      withCredentials: true,
    });
    const onUnread = (message: MessageEvent<string>) => {
      const parsed = AlertStreamEventSchema.safeParse(JSON.parse(message.data));
      if (!parsed.success) return;
      setUnreadCount(parsed.data.unreadCount);
      void queryClient.invalidateQueries({ queryKey: ['alerts', 'list'] });
    };
    source.addEventListener('unread', onUnread);
    return () => {
      source.removeEventListener('unread', onUnread);
      source.close();
    };
  }, [isEnabled, queryClient]);
  return unreadCount;
}

export { alertKeys };
