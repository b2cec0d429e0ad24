import { ScanStation } from '@/features/scan-station/components/scan-station';

export default function ScanStationRoute() {
  return <ScanStation />;
}
