import { BellIcon } from 'lucide-react';
import { Link } from 'wouter';

import { Button } from '@/components/ui/button';
import { useTranslation } from '@/lib/i18n';

import { useUnreadAlerts } from '../api/use-unread-alerts';

/** The header's bell: open alerts of the organization, live over server-sent events. */
export function AlertsBell({ href, className }: { href: string; className?: string }) {
  const { t } = useTranslation('alerts');
  const unreadCount = useUnreadAlerts(true);
  const label = unreadCount === null ? t('bell') : t('bellUnread', { count: unreadCount });
  return (
    <Button asChild variant="ghost" size="icon" className={className ?? 'relative size-9'}>
      <Link href={href} aria-label={label} title={label} data-testid="alerts-bell">
        <BellIcon aria-hidden />
        {unreadCount !== null && unreadCount > 0 && (
          <span
            data-testid="alerts-unread-count"
            className="absolute -top-0.5 -right-0.5 flex min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] leading-4 font-semibold text-destructive-foreground"
          >
            {unreadCount > 99 ? '99+' : unreadCount}
          </span>
        )}
      </Link>
    </Button>
  );
}
