import { SafetyVideos } from '@/features/induction/components/safety-videos';

export default function SafetyVideosRoute() {
  return <SafetyVideos />;
}
