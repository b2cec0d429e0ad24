import { Badge } from '@/components/ui/badge';

const kilograms = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatKg(value: number | null): string {
  return value === null ? '-' : `${kilograms.format(value)} kg`;
}

/** The gross − tare = net check as a badge; a dash when a weight is missing. */
export function WeightCheck({ agrees }: { agrees: boolean | null }) {
  if (agrees === null) return <span className="text-muted-foreground">-</span>;
  return agrees ? (
    <Badge variant="success">Gross − Tare = Net</Badge>
  ) : (
    <Badge variant="destructive">Gross − Tare ≠ Net</Badge>
  );
}
