import { AccountSecurity } from '@/features/auth/components/account-security';

/** The signed-in user's own two-step verification (SEC-26), linked from the account menu. */
export default function AccountSecurityRoute() {
  return <AccountSecurity />;
}
