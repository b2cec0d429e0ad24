import { CameraIcon, KeyboardIcon, RefreshCwIcon } from 'lucide-react';

import { ReadingField } from '@/components/reading-field';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

import {
  type Capture,
  EDITABLE,
  type LabelledField,
  type TabDefinition,
  type TabEdits,
} from './process-entry';

export type TabState = 'idle' | 'processing' | 'error';

function Fields({ fields }: { fields: LabelledField[] }) {
  return (
    <dl className="grid gap-1 text-sm">
      {fields.map(({ label, value }) => (
        <div key={label} className="flex justify-between gap-4 border-b py-1">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="text-right font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function TabPanel({
  tab,
  existing,
  capture,
  state,
  onCapture,
  edits,
  onEdit,
  onConfirm,
  onEnterManually,
}: {
  tab: TabDefinition;
  existing: LabelledField[];
  capture: Capture | undefined;
  state: TabState;
  onCapture: () => void;
  /** Issue 15: the tab's reading as edited; undefined until read or entered manually. */
  edits: TabEdits | undefined;
  onEdit: (name: string, value: string) => void;
  onConfirm: (name: string) => void;
  onEnterManually: () => void;
}) {
  const editable = EDITABLE[tab.key];
  if (state === 'processing') {
    return (
      <p
        role="status"
        className="flex items-center justify-center gap-2 py-8 text-muted-foreground"
      >
        <Spinner />
        Processing image with AI...
      </p>
    );
  }
  return (
    <div className="grid gap-4">
      {edits && editable ? (
        <div className="grid gap-2 rounded-lg border p-4" data-testid={`extracted-${tab.key}`}>
          <h4 className="font-medium">{capture ? '✓ Data Extracted' : 'Enter manually'}</h4>
          {editable.fields.map(({ name, label }) => {
            const field = edits.edits.fields[name];
            return field ? (
              <ReadingField
                key={name}
                name={name}
                label={label}
                field={field}
                onChange={onEdit}
                onConfirm={onConfirm}
              />
            ) : null;
          })}
        </div>
      ) : capture ? (
        <Alert variant="success" data-testid={`extracted-${tab.key}`}>
          <AlertTitle>✓ Data Extracted</AlertTitle>
          <AlertDescription>
            <Fields fields={capture.fields} />
          </AlertDescription>
        </Alert>
      ) : existing.length > 0 ? (
        <div className="grid gap-2 rounded-lg border p-4" data-testid={`existing-${tab.key}`}>
          <div className="flex items-center justify-between gap-2">
            <h4 className="font-medium">Existing {tab.existingNoun} Data</h4>
            <Badge variant="secondary">From Webhook</Badge>
          </div>
          <Fields fields={existing} />
        </div>
      ) : null}
      {state === 'error' && (
        <Alert variant="destructive">
          <AlertDescription>Failed to extract data. Please try again.</AlertDescription>
        </Alert>
      )}
      {editable && !edits && (
        <Button variant="outline" onClick={onEnterManually}>
          <KeyboardIcon aria-hidden />
          Enter manually
        </Button>
      )}
      {capture || existing.length > 0 ? (
        <Button variant="outline" onClick={onCapture}>
          <RefreshCwIcon aria-hidden />
          Re-capture
        </Button>
      ) : (
        <Button onClick={onCapture}>
          <CameraIcon aria-hidden />
          {tab.captureLabel}
        </Button>
      )}
      {tab.optional && (
        <p className="text-center text-xs text-muted-foreground">
          Optional: this does not hold up completion.
        </p>
      )}
    </div>
  );
}
