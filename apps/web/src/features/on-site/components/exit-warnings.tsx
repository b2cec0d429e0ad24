import { TriangleAlertIcon } from 'lucide-react';

import type { Visit } from '@boomgate/contracts/visits';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

/**
 * What the server found when it checked the exit's weighbridge ticket and seals against the
 * entry's. The exit is recorded either way; the guard sees what to look into before the truck
 * leaves (the visit is gone from the list, so the warning stays here until dismissed).
 */
export function ExitWarnings({ visit, onDismiss }: { visit: Visit; onDismiss: () => void }) {
  const { t } = useTranslation('onSite');
  if (visit.exitMismatches.length === 0) return null;
  const who = visit.plateNumber ? formatPlate(visit.plateNumber) : (visit.personName ?? '');
  return (
    <Alert variant="destructive" data-testid="exit-mismatches">
      <TriangleAlertIcon aria-hidden />
      <AlertTitle>{t('exitWarnings.title', { who })}</AlertTitle>
      <AlertDescription>
        <ul className="list-disc pl-4">
          {visit.exitMismatches.map((mismatch) => (
            <li key={mismatch.code}>
              {t(`exitWarnings.${mismatch.code}`)} {t('exitWarnings.entry')}{' '}
              <span className="font-mono">{mismatch.entry}</span>; {t('exitWarnings.exit')}{' '}
              <span className="font-mono">{mismatch.exit}</span>.
            </li>
          ))}
        </ul>
        <Button size="sm" variant="outline" className="mt-2" onClick={onDismiss}>
          {t('exitWarnings.dismiss')}
        </Button>
      </AlertDescription>
    </Alert>
  );
}
