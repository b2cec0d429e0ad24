import { CameraIcon, KeyboardIcon, RefreshCwIcon } from 'lucide-react';

import { ReadingField } from '@/components/reading-field';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { useTranslation } from '@/lib/i18n';

import { fieldLabel, tabList } from './incoming-feed-texts';

import {
  type Capture,
  EDITABLE,
  type LabelledField,
  type TabDefinition,
  type TabEdits,
} from './process-entry';

export type TabState = 'idle' | 'processing' | 'error';

function Fields({ fields }: { fields: LabelledField[] }) {
  const { t } = useTranslation('incomingFeed');
  return (
    <dl className="grid gap-1 text-sm">
      {fields.map(({ label, value }) => (
        <div key={label} className="flex justify-between gap-4 border-b py-1">
          <dt className="text-muted-foreground">{fieldLabel(t, label)}</dt>
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
  const { t } = useTranslation('incomingFeed');
  const editable = EDITABLE[tab.key];
  if (state === 'processing') {
    return (
      <p
        role="status"
        className="flex items-center justify-center gap-2 py-8 text-muted-foreground"
      >
        <Spinner />
        {t('panel.processing')}
      </p>
    );
  }
  return (
    <div className="grid gap-4">
      {edits && editable ? (
        <div className="grid gap-2 rounded-lg border p-4" data-testid={`extracted-${tab.key}`}>
          <h4 className="font-medium">
            {capture ? t('panel.extracted') : t('panel.enterManually')}
          </h4>
          {editable.fields.map(({ name, label }) => {
            const field = edits.edits.fields[name];
            return field ? (
              <ReadingField
                key={name}
                name={name}
                label={fieldLabel(t, label)}
                field={field}
                onChange={onEdit}
                onConfirm={onConfirm}
              />
            ) : null;
          })}
        </div>
      ) : capture ? (
        <Alert variant="success" data-testid={`extracted-${tab.key}`}>
          <AlertTitle>{t('panel.extracted')}</AlertTitle>
          <AlertDescription>
            <Fields fields={capture.fields} />
          </AlertDescription>
        </Alert>
      ) : existing.length > 0 ? (
        <div className="grid gap-2 rounded-lg border p-4" data-testid={`existing-${tab.key}`}>
          <div className="flex items-center justify-between gap-2">
            <h4 className="font-medium">{t(`tabs.${tab.key}.existing`)}</h4>
            <Badge variant="secondary">{t('panel.fromWebhook')}</Badge>
          </div>
          <Fields fields={existing} />
        </div>
      ) : null}
      {state === 'error' && (
        <Alert variant="destructive">
          <AlertDescription>{t('panel.extractFailed')}</AlertDescription>
        </Alert>
      )}
      {editable && !edits && (
        <Button variant="outline" onClick={onEnterManually}>
          <KeyboardIcon aria-hidden />
          {t('panel.enterManually')}
        </Button>
      )}
      {capture || existing.length > 0 ? (
        <Button variant="outline" onClick={onCapture}>
          <RefreshCwIcon aria-hidden />
          {t('panel.recapture')}
        </Button>
      ) : (
        <Button onClick={onCapture}>
          <CameraIcon aria-hidden />
          {t(`tabs.${tab.key}.capture`)}
        </Button>
      )}
      {tab.optional && (
        <p className="text-center text-xs text-muted-foreground">{t('panel.optional')}</p>
      )}
    </div>
  );
}

/** The dialog's footer: what still stops completion, Cancel and Complete Processing. */
export function CompletionFooter({
  canComplete,
  missing,
  toConfirm,
  isSaving,
  isBusy,
  onCancel,
  onComplete,
}: {
  canComplete: boolean;
  /** The spec's names of the missing documents (`MissingRequirement`). */
  missing: readonly string[];
  /** Uncertain fields still to confirm, already in the chosen language. */
  toConfirm: readonly string[];
  isSaving: boolean;
  isBusy: boolean;
  onCancel: () => void;
  onComplete: () => void;
}) {
  const { t } = useTranslation('incomingFeed');
  return (
    <DialogFooter className="items-center sm:justify-between">
      <p
        data-testid="required-status"
        className={canComplete ? 'text-sm text-success' : 'text-sm text-muted-foreground'}
      >
        {canComplete
          ? t('dialog.allComplete')
          : missing.length > 0
            ? t('dialog.required', { list: tabList(t, missing) })
            : t('dialog.confirmOrCorrect', { list: toConfirm.join(', ') })}
      </p>
      <div className="flex gap-2">
        <Button variant="outline" onClick={onCancel}>
          {t('dialog.cancel')}
        </Button>
        <Button onClick={onComplete} disabled={!canComplete || isBusy}>
          {isSaving && <Spinner />}
          {canComplete ? t('dialog.complete') : t('dialog.fillRequired')}
        </Button>
      </div>
    </DialogFooter>
  );
}
