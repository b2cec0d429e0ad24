import type { CSSProperties, ReactNode } from 'react';

import { useTranslation } from '@/lib/i18n';

import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from './sheet';

/** The sidebar as a drawer on phones (see Sidebar in sidebar.tsx, which loads this lazily). */
export function SidebarSheet({
  open,
  onOpenChange,
  side,
  title,
  width,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  side: 'left' | 'right';
  title: string;
  width: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('shared');
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        side={side}
        data-testid="mobile-menu"
        className="w-(--sidebar-width-mobile) max-w-[85vw] bg-sidebar p-0 text-sidebar-foreground"
        style={{ '--sidebar-width-mobile': width } as CSSProperties}
      >
        <SheetHeader className="sr-only">
          <SheetTitle>{title}</SheetTitle>
          <SheetDescription>{t('sidebar.drawerDescription')}</SheetDescription>
        </SheetHeader>
        <div className="flex h-full w-full flex-col">{children}</div>
      </SheetContent>
    </Sheet>
  );
}
