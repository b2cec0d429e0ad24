import { IncomingFeed } from '@/features/incoming-feed/components/incoming-feed';

export default function IncomingFeedRoute() {
  return <IncomingFeed />;
}
