import {
  CheckCircle2Icon,
  ClockIcon,
  FileTextIcon,
  FlaskConicalIcon,
  LoaderIcon,
  ScanLineIcon,
  SparklesIcon,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/hooks/use-toast';
import { useTranslation } from '@/lib/i18n';

/** Spec §9: the simulated scan takes 3 seconds and captures 3 documents. */
export const SIMULATED_SCAN_MS = 3000;
const SIMULATED_DOCUMENT_COUNT = 3;

type Station = 'gate' | 'weighbridge' | 'office';

/** Each station's documents, as keys of the `scan` catalogue (`documents.*`). */
const STATIONS: Record<Station, { documents: string[] }> = {
  gate: { documents: ['driversLicence', 'idDocument', 'licenceDisc'] },
  weighbridge: { documents: ['weighbridgeTicket', 'deliveryNote', 'sealRecord'] },
  office: { documents: ['permit', 'transportOrder', 'inductionCertificate'] },
};

/** A fixed example queue: this screen does not process anything. */
const PROCESSING_QUEUE = [
  { document: 'driversLicence', station: 'gate', status: 'Complete' },
  { document: 'weighbridgeTicket', station: 'weighbridge', status: 'Processing' },
  { document: 'transportOrder', station: 'office', status: 'Queued' },
] as const;

const FUTURE_ENHANCEMENTS = ['fixedScanners', 'batchScanning', 'autoSorting', 'liveQueue'];

function StationPanel({ station }: { station: Station }) {
  const [isScanning, setIsScanning] = useState(false);
  const [captured, setCaptured] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const { t } = useTranslation('scan');

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const startScan = () => {
    setIsScanning(true);
    setCaptured([]);
    timer.current = setTimeout(() => {
      timer.current = null;
      setIsScanning(false);
      setCaptured(STATIONS[station].documents.slice(0, SIMULATED_DOCUMENT_COUNT));
      toast({
        title: t('scanComplete'),
        description: t('documentsCaptured', { count: SIMULATED_DOCUMENT_COUNT }),
      });
    }, SIMULATED_SCAN_MS);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('stationTitle', { station: t(`stations.${station}`) })}</CardTitle>
        <CardDescription>{t(`stationDescriptions.${station}`)}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Button className="w-fit" onClick={startScan} disabled={isScanning}>
          {isScanning ? <Spinner /> : <ScanLineIcon aria-hidden />}
          {isScanning ? t('scanning') : t('startScan')}
        </Button>
        {captured.length > 0 && (
          <div className="grid gap-2" role="status">
            <p className="text-sm font-medium">
              {t('documentsCapturedSimulated', { count: captured.length })}
            </p>
            <ul className="grid gap-2 sm:grid-cols-3">
              {captured.map((document) => (
                <li
                  key={document}
                  className="flex items-center gap-2 rounded-md border p-3 text-sm"
                >
                  <FileTextIcon aria-hidden className="size-4 text-muted-foreground" />
                  {t(`documents.${document}`)}
                </li>
              ))}
            </ul>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

const statusIcon = {
  Complete: <CheckCircle2Icon aria-hidden className="size-4 text-success" />,
  Processing: <LoaderIcon aria-hidden className="size-4 text-muted-foreground" />,
  Queued: <ClockIcon aria-hidden className="size-4 text-muted-foreground" />,
};

/** Spec §2 Document Scan Station: a simulated demonstration, labelled as such. */
export function ScanStation() {
  const { t } = useTranslation('scan');
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={<Badge variant="outline">{t('demonstration')}</Badge>}
      />
      <Alert>
        <FlaskConicalIcon aria-hidden />
        <AlertTitle>{t('demoTitle')}</AlertTitle>
        <AlertDescription>{t('demoBody')}</AlertDescription>
      </Alert>

      <Tabs defaultValue="gate">
        <TabsList>
          {(Object.keys(STATIONS) as Station[]).map((station) => (
            <TabsTrigger key={station} value={station}>
              {t(`stations.${station}`)}
            </TabsTrigger>
          ))}
        </TabsList>
        {(Object.keys(STATIONS) as Station[]).map((station) => (
          <TabsContent key={station} value={station}>
            <StationPanel station={station} />
          </TabsContent>
        ))}
      </Tabs>

      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t('queueTitle')}</CardTitle>
            <CardDescription>{t('queueDescription')}</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-2">
              {PROCESSING_QUEUE.map((item) => (
                <li
                  key={item.document}
                  className="flex items-center justify-between gap-2 rounded-md border p-3 text-sm"
                >
                  <span className="flex items-center gap-2">
                    {statusIcon[item.status]}
                    {t(`documents.${item.document}`)}
                    <span className="text-muted-foreground">· {t(`stations.${item.station}`)}</span>
                  </span>
                  <Badge variant={item.status === 'Complete' ? 'success' : 'secondary'}>
                    {t(`statuses.${item.status}`)}
                  </Badge>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <SparklesIcon aria-hidden className="size-4" />
              {t('futureTitle')}
            </CardTitle>
            <CardDescription>{t('futureDescription')}</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="list-disc space-y-1 pl-5 text-sm">
              {FUTURE_ENHANCEMENTS.map((item) => (
                <li key={item}>{t(`future.${item}`)}</li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
