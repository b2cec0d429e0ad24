import { LogOutIcon, MenuIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';

import type { AuthResponse } from '@boomgate/contracts/auth';
import { roleMay } from '@boomgate/contracts/roles';

import { LanguagePicker } from '@/components/language-picker';
import { OfflineBanner } from '@/components/offline-banner';
import { SiteSyncBanner } from '@/components/site-sync-banner';
import { BrandMark } from '@/components/ui/brand-mark';
import { Button } from '@/components/ui/button';
import { Separator } from '@/components/ui/separator';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarProvider,
  SidebarTrigger,
  useSidebar,
} from '@/components/ui/sidebar';
import { Spinner } from '@/components/ui/spinner';
import { ThemeToggle } from '@/components/ui/theme-toggle';
import { paths } from '@/config/paths';
import { AlertsBell } from '@/features/alerts/components/alerts-bell';
import { useSession } from '@/features/auth/api/get-session';
import { useAccountLanguage } from '@/features/auth/api/set-language';
import { cn } from '@/lib/cn';
import { displayName } from '@/lib/display-name';
import { useTranslation } from '@/lib/i18n';

import {
  bottomNavItems,
  isCurrent,
  accountItems,
  mobileMenuItems,
  type NavItem,
  sidebarItems,
  visibleTo,
} from './navigation';
import { useSignOut } from './use-sign-out';

/** The signed-in shell: a collapsible sidebar on desktop, header + bottom navigation on mobile. */
export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <SidebarProvider>
      <Shell>{children}</Shell>
    </SidebarProvider>
  );
}

/**
 * The chrome (sidebar or menu drawer, header, bottom navigation) changes with the layout, but the
 * screen itself always sits at the same place in the tree: turning a tablet between portrait and
 * landscape switches the layout without remounting the screen, so a half-done gate entry survives.
 */
function Shell({ children }: { children: ReactNode }) {
  const { isMobile } = useSidebar();
  const session = useSession();
  const saveLanguage = useAccountLanguage(session);
  return (
    <>
      {isMobile ? <MobileMenu session={session} /> : <DesktopSidebar session={session} />}
      <div
        className={
          isMobile
            ? 'flex min-h-svh w-full flex-col'
            : 'relative flex w-full min-w-0 flex-1 flex-col bg-background'
        }
      >
        {isMobile ? (
          <MobileHeader session={session} onLanguageChanged={saveLanguage} />
        ) : (
          <DesktopHeader session={session} onLanguageChanged={saveLanguage} />
        )}
        <OfflineBanner userId={session.user.id} />
        <SiteSyncBanner />
        <main
          className={
            isMobile
              ? 'flex flex-1 flex-col p-4 pb-[calc(5rem+env(safe-area-inset-bottom))]'
              : 'flex flex-1 flex-col p-4 md:p-6'
          }
        >
          {children}
        </main>
        {isMobile && <BottomNavigation />}
      </div>
    </>
  );
}

function NavLinks({ items, onNavigate }: { items: readonly NavItem[]; onNavigate?: () => void }) {
  const [location] = useLocation();
  const { t } = useTranslation('nav');
  return (
    <SidebarMenu>
      {items.map((item) => (
        <SidebarMenuItem key={item.href}>
          <SidebarMenuButton
            asChild
            isActive={isCurrent(item, location)}
            tooltip={t(item.title, { defaultValue: item.title })}
          >
            <Link href={item.href} onClick={onNavigate}>
              <item.icon aria-hidden />
              <span>{t(item.title, { defaultValue: item.title })}</span>
            </Link>
          </SidebarMenuButton>
        </SidebarMenuItem>
      ))}
    </SidebarMenu>
  );
}

function SessionSummary({ session }: { session: AuthResponse }) {
  return (
    <div className="grid min-w-0 px-2 py-1 text-sm leading-tight" data-testid="session-summary">
      <span className="truncate font-medium">{displayName(session.user)}</span>
      <span className="truncate text-xs text-sidebar-foreground/70">{session.tenant.name}</span>
    </div>
  );
}

function LogoutButton({
  onClick,
  isSigningOut,
  className,
}: {
  onClick: () => void;
  isSigningOut: boolean;
  className?: string;
}) {
  const { t } = useTranslation('common');
  return (
    <Button
      variant="outline"
      className={cn('w-full justify-start', className)}
      disabled={isSigningOut}
      onClick={onClick}
    >
      {isSigningOut ? <Spinner /> : <LogOutIcon aria-hidden />}
      <span>{isSigningOut ? t('shell.loggingOut') : t('shell.logout')}</span>
    </Button>
  );
}

function DesktopSidebar({ session }: { session: AuthResponse }) {
  const { state } = useSidebar();
  const { signOut, isSigningOut } = useSignOut({ isMobile: false });
  const isCollapsed = state === 'collapsed';
  const { t } = useTranslation('common');

  return (
    <Sidebar>
      <SidebarHeader>
        <Link
          href="/"
          className="flex h-10 items-center gap-2 overflow-hidden rounded-md px-1 font-semibold"
        >
          <BrandMark className="size-6" />
          <span className="truncate text-lg group-data-[collapsible=icon]:hidden">Boomgate</span>
        </Link>
      </SidebarHeader>
      <Separator className="bg-sidebar-border" />
      <SidebarContent>
        <nav aria-label={t('shell.main')}>
          <SidebarGroup>
            <SidebarGroupLabel>{t('shell.navigation')}</SidebarGroupLabel>
            <NavLinks items={visibleTo(sidebarItems, session.user.role)} />
          </SidebarGroup>
        </nav>
      </SidebarContent>
      <Separator className="bg-sidebar-border" />
      <SidebarFooter>
        <div className="group-data-[collapsible=icon]:hidden">
          <SessionSummary session={session} />
        </div>
        <nav aria-label={t('shell.account')}>
          <NavLinks items={accountItems} />
        </nav>
        {isCollapsed ? (
          <Button
            variant="ghost"
            size="icon"
            className="size-8"
            aria-label={isSigningOut ? t('shell.loggingOut') : t('shell.logout')}
            title={t('shell.logout')}
            disabled={isSigningOut}
            onClick={signOut}
          >
            {isSigningOut ? <Spinner /> : <LogOutIcon aria-hidden />}
          </Button>
        ) : (
          <LogoutButton onClick={signOut} isSigningOut={isSigningOut} />
        )}
      </SidebarFooter>
    </Sidebar>
  );
}

function DesktopHeader({
  session,
  onLanguageChanged,
}: {
  session: AuthResponse;
  onLanguageChanged: (language: string) => void;
}) {
  return (
    <header className="sticky top-0 z-10 flex h-14 shrink-0 items-center gap-2 border-b bg-background/95 px-4 backdrop-blur">
      <SidebarTrigger className="-ml-1" />
      <Separator orientation="vertical" className="mr-2 h-4!" />
      <span className="truncate text-sm text-muted-foreground">{session.tenant.name}</span>
      <div className="ml-auto flex items-center gap-1">
        {roleMay(session.user.role, 'viewAlerts') && <AlertsBell href={paths.alerts} />}
        <LanguagePicker onChanged={onLanguageChanged} />
        <ThemeToggle />
      </div>
    </header>
  );
}

function MobileHeader({
  session,
  onLanguageChanged,
}: {
  session: AuthResponse;
  onLanguageChanged: (language: string) => void;
}) {
  const { t } = useTranslation('nav');
  return (
    <header className="sticky top-0 z-10 flex h-12 shrink-0 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur">
      <Link href="/" className="flex min-h-11 min-w-0 items-center gap-2 font-semibold">
        <BrandMark className="size-6" />
        <span className="truncate">Boomgate</span>
      </Link>
      <div className="ml-auto flex items-center gap-1">
        {roleMay(session.user.role, 'viewAlerts') && <AlertsBell href={paths.alerts} />}
        {/* The account's own screen; the spec's Menu drawer keeps exactly its listed items. */}
        {accountItems.map((item) => (
          <Button key={item.href} asChild variant="ghost" size="icon" className="size-11">
            <Link
              href={item.href}
              aria-label={t(item.title, { defaultValue: item.title })}
              title={t(item.title, { defaultValue: item.title })}
            >
              <item.icon aria-hidden />
            </Link>
          </Button>
        ))}
        <LanguagePicker onChanged={onLanguageChanged} />
        <ThemeToggle className="size-11" />
      </div>
    </header>
  );
}

function BottomNavigation() {
  const [location] = useLocation();
  const { openMobile, setOpenMobile } = useSidebar();
  const { t } = useTranslation('nav');
  return (
    <nav
      aria-label={t('common:shell.bottomNavigation')}
      className="fixed inset-x-0 bottom-0 z-20 border-t bg-background pb-[env(safe-area-inset-bottom)]"
    >
      <ul className="grid grid-cols-4">
        {bottomNavItems.map((item) => {
          const isActive = isCurrent(item, location);
          return (
            <li key={item.title}>
              <Link
                href={item.href}
                aria-current={isActive ? 'page' : undefined}
                className={cn(
                  'flex h-16 flex-col items-center justify-center gap-1 text-center text-xs',
                  isActive ? 'font-semibold text-foreground' : 'text-muted-foreground',
                )}
              >
                <item.icon aria-hidden className="size-5" />
                {t(item.title, { defaultValue: item.title })}
              </Link>
            </li>
          );
        })}
        <li>
          <button
            type="button"
            aria-expanded={openMobile}
            aria-haspopup="dialog"
            data-testid="mobile-menu-button"
            className="flex h-16 w-full flex-col items-center justify-center gap-1 text-xs text-muted-foreground"
            onClick={() => setOpenMobile(true)}
          >
            <MenuIcon aria-hidden className="size-5" />
            {t('common:shell.menu')}
          </button>
        </li>
      </ul>
    </nav>
  );
}

function MobileMenu({ session }: { session: AuthResponse }) {
  const { setOpenMobile } = useSidebar();
  const { signOut, isSigningOut } = useSignOut({ isMobile: true });
  const { t } = useTranslation('common');

  return (
    <Sidebar side="right" mobileTitle={t('shell.menu')}>
      <SidebarHeader className="pt-4">
        <span className="px-2 text-lg font-semibold">{t('shell.menu')}</span>
        <SessionSummary session={session} />
      </SidebarHeader>
      <Separator className="bg-sidebar-border" />
      <SidebarContent>
        <nav aria-label={t('shell.menu')}>
          <SidebarGroup>
            <NavLinks
              items={visibleTo(mobileMenuItems, session.user.role)}
              onNavigate={() => setOpenMobile(false)}
            />
          </SidebarGroup>
        </nav>
      </SidebarContent>
      <SidebarFooter className="pb-[calc(0.5rem+env(safe-area-inset-bottom))]">
        <LogoutButton onClick={signOut} isSigningOut={isSigningOut} />
      </SidebarFooter>
    </Sidebar>
  );
}
