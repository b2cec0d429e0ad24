import { useState } from 'react';

import type { EntryLog } from '@boomgate/contracts/entry-logs';

import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { type GrantEntryVariables, useGrantEntry } from '@/lib/api/grant-entry';
import { useDecisionFeedback } from '@/lib/decision-feedback';
import { i18next, useTranslation } from '@/lib/i18n';
import { isNetworkError, queueAction, reportUnreachable } from '@/lib/offline/offline-sync';
import { formatPlate } from '@/lib/plates';

import { refusalLabel } from './entry-decided-panel';
import type { RealGateEvent } from './real-gate-machine';

/** Spec §9: the Entry Granted toast lasts 3000 ms. */
export const ENTRY_GRANTED_TOAST_MS = 3000;

type EntryBody = GrantEntryVariables['body'];

/**
 * The last step of Real Gate: the guard grants (or refuses) and the server decides, answering the
 * saved entry; without a network the entry is queued on the device (issue 18). One
 * Idempotency-Key per checklist, so a retry or a replayed queue never logs the entry twice.
 */
export function useRealGateDecision({
  dispatch,
  entryBody,
  plateNumber,
}: {
  dispatch: (event: RealGateEvent) => boolean;
  entryBody: () => EntryBody;
  plateNumber: string | null;
}) {
  const { t } = useTranslation('realGate');
  const grantEntry = useGrantEntry();
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  /** The entry as the server saved it (granted or refused): the checklist is over. */
  const [savedEntry, setSavedEntry] = useState<EntryLog | null>(null);
  // Issue 19: the verdict buzzes and beeps where the device allows.
  useDecisionFeedback(savedEntry ? (savedEntry.entryGranted ? 'approved' : 'refused') : null);

  const handleGrant = () => {
    if (!dispatch({ type: 'STEP_STARTED', step: 'complete' })) return;
    grantEntry.mutate(
      { body: entryBody(), idempotencyKey },
      {
        onSuccess: (entry) => {
          setSavedEntry(entry);
          // The server decides (issue 14): a rule may refuse what the guard granted.
          if (!entry.entryGranted) {
            toast({
              variant: 'destructive',
              title: t('toast.entryRefused'),
              description: t('toast.refusedLogged', { reason: refusalLabel(entry.refusalReason) }),
            });
            return;
          }
          dispatch({ type: 'STEP_SUCCEEDED', step: 'complete' });
          toast({
            title: t('toast.entryGranted'),
            description: plateNumber
              ? t('toast.mayEnter', { plate: formatPlate(plateNumber) })
              : t('toast.entryLogged'),
            duration: ENTRY_GRANTED_TOAST_MS,
          });
        },
        onError: (error) => {
          if (isNetworkError(error)) {
            void queueOffline(entryBody());
            return;
          }
          dispatch({ type: 'STEP_FAILED', step: 'complete', error: t('toast.failedToSave') });
          toast({
            variant: 'destructive',
            title: t('toast.errorSaving'),
            description: getErrorMessage(error, t('toast.failedToSave')),
          });
        },
      },
    );
  };

  /**
   * Issue 18: the server did not answer. The entry is queued on the device with the same body and
   * Idempotency-Key (a request that did reach the server is then answered with its entry), and the
   * server decides when it answers.
   */
  const queueOffline = async (body: EntryBody) => {
    reportUnreachable();
    try {
      await queueAction({ id: idempotencyKey, path: '/api/auto-gate/grant-entry', body });
    } catch (error) {
      dispatch({ type: 'STEP_FAILED', step: 'complete', error: t('toast.failedToSave') });
      toast({
        variant: 'destructive',
        title: t('toast.errorSaving'),
        description: getErrorMessage(error, t('toast.failedToSave')),
      });
      return;
    }
    dispatch({ type: 'STEP_SUCCEEDED', step: 'complete' });
    toast({
      title: i18next.t('offline:realGateQueuedTitle'),
      description: i18next.t('offline:realGateQueuedDescription'),
    });
  };

  /** The guard refuses the vehicle at the last step: the attempt is logged with its reason. */
  const handleRefuse = () => {
    if (!dispatch({ type: 'STEP_STARTED', step: 'complete' })) return;
    grantEntry.mutate(
      {
        body: {
          ...entryBody(),
          entryGranted: false,
          refusalReason: 'guard_refused',
        },
        idempotencyKey,
      },
      {
        onSuccess: (entry) => {
          setSavedEntry(entry);
          toast({
            variant: 'destructive',
            title: t('toast.entryRefused'),
            description: t('toast.refusalLogged'),
          });
        },
        onError: (error) => {
          dispatch({ type: 'STEP_FAILED', step: 'complete', error: t('toast.failedToSave') });
          toast({
            variant: 'destructive',
            title: t('toast.errorSaving'),
            description: getErrorMessage(error, t('toast.failedToSave')),
          });
        },
      },
    );
  };

  return { savedEntry, setSavedEntry, grant: handleGrant, refuse: handleRefuse };
}
