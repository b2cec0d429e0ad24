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

/** Spec §9: the simulated scan takes 3 seconds and captures 3 documents. */
export const SIMULATED_SCAN_MS = 3000;
const SIMULATED_DOCUMENT_COUNT = 3;

type Station = 'gate' | 'weighbridge' | 'office';

const STATIONS: Record<Station, { label: string; description: string; documents: string[] }> = {
  gate: {
    label: 'Gate',
    description: 'Driver and vehicle documents presented at the gate.',
    documents: ["Driver's licence", 'ID document', 'Licence disc'],
  },
  weighbridge: {
    label: 'Weighbridge',
    description: 'Tickets and load documents at the weighbridge.',
    documents: ['Weighbridge ticket', 'Delivery note', 'Seal record'],
  },
  office: {
    label: 'Office',
    description: 'Paperwork handed in at the office.',
    documents: ['Permit', 'Transport order', 'Induction certificate'],
  },
};

/** A fixed example queue: this screen does not process anything. */
const PROCESSING_QUEUE = [
  { document: "Driver's licence", station: 'Gate', status: 'Complete' },
  { document: 'Weighbridge ticket', station: 'Weighbridge', status: 'Processing' },
  { document: 'Transport order', station: 'Office', status: 'Queued' },
] as const;

const FUTURE_ENHANCEMENTS = [
  'Fixed document scanners at each station that capture automatically',
  'Batch scanning of office paperwork into the incoming feed',
  'Automatic sorting of captured pages by document type',
  'Live processing queue with the results of each read',
];

function StationPanel({ station }: { station: Station }) {
  const [isScanning, setIsScanning] = useState(false);
  const [captured, setCaptured] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

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
        title: 'Scan Complete',
        description: `${SIMULATED_DOCUMENT_COUNT} documents captured`,
      });
    }, SIMULATED_SCAN_MS);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{STATIONS[station].label} Station</CardTitle>
        <CardDescription>{STATIONS[station].description}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Button className="w-fit" onClick={startScan} disabled={isScanning}>
          {isScanning ? <Spinner /> : <ScanLineIcon aria-hidden />}
          {isScanning ? 'Scanning...' : 'Start Automatic Scan'}
        </Button>
        {captured.length > 0 && (
          <div className="grid gap-2" role="status">
            <p className="text-sm font-medium">{captured.length} documents captured (simulated)</p>
            <ul className="grid gap-2 sm:grid-cols-3">
              {captured.map((document) => (
                <li
                  key={document}
                  className="flex items-center gap-2 rounded-md border p-3 text-sm"
                >
                  <FileTextIcon aria-hidden className="size-4 text-muted-foreground" />
                  {document}
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
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <PageHeader
        title="Document Scan Station"
        description="Scan documents at the gate, the weighbridge and the office."
        actions={<Badge variant="outline">Demonstration</Badge>}
      />
      <Alert>
        <FlaskConicalIcon aria-hidden />
        <AlertTitle>Demonstration only</AlertTitle>
        <AlertDescription>
          This station is simulated: scans, documents and the queue below are examples, and nothing
          is captured or saved. Use Real Gate Entry or the Weighbridge Station to read real
          documents.
        </AlertDescription>
      </Alert>

      <Tabs defaultValue="gate">
        <TabsList>
          {(Object.keys(STATIONS) as Station[]).map((station) => (
            <TabsTrigger key={station} value={station}>
              {STATIONS[station].label}
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
            <CardTitle>Processing Queue</CardTitle>
            <CardDescription>Example entries (static).</CardDescription>
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
                    {item.document}
                    <span className="text-muted-foreground">· {item.station}</span>
                  </span>
                  <Badge variant={item.status === 'Complete' ? 'success' : 'secondary'}>
                    {item.status}
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
              Future Enhancements
            </CardTitle>
            <CardDescription>Planned for the scan station.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="list-disc space-y-1 pl-5 text-sm">
              {FUTURE_ENHANCEMENTS.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
