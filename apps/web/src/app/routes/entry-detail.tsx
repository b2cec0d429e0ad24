import { useParams } from 'wouter';

import { EntryDetail } from '@/features/entry-logs/components/entry-detail';

export default function EntryDetailRoute() {
  const { id } = useParams<{ id: string }>();
  return <EntryDetail id={id} />;
}
