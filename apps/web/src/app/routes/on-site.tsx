import { OnSite } from '@/features/on-site/components/on-site';

export default function OnSiteRoute() {
  return <OnSite />;
}
