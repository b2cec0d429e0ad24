import { useState } from 'react';

import { startTabEdits, type TabDefinition, type TabEdits, type TabKey } from './process-entry';

/**
 * Issue 15: the Process Vehicle Entry dialog's edits of each tab's reading (typed, corrected,
 * confirmed), kept apart from the dialog's capture and completion flow.
 */
export function useTabEdits() {
  const [tabEdits, setTabEdits] = useState<Partial<Record<TabKey, TabEdits>>>({});
  const updateEdits = (key: TabKey, change: (edited: TabEdits) => TabEdits) =>
    setTabEdits((previous) => {
      const edited = previous[key];
      return edited ? { ...previous, [key]: change(edited) } : previous;
    });
  const editField = (key: TabKey, name: string, value: string) =>
    updateEdits(key, (edited) => {
      const field = edited.edits.fields[name];
      if (!field) return edited;
      return {
        ...edited,
        edits: { ...edited.edits, fields: { ...edited.edits.fields, [name]: { ...field, value } } },
      };
    });
  const confirmField = (key: TabKey, name: string) =>
    updateEdits(key, (edited) => {
      const field = edited.edits.fields[name];
      if (!field) return edited;
      return {
        ...edited,
        edits: {
          ...edited.edits,
          fields: { ...edited.edits.fields, [name]: { ...field, confirmed: true } },
        },
      };
    });
  const enterManually = (tab: TabDefinition) => {
    const started = startTabEdits(tab.key, null, null);
    if (started) setTabEdits((previous) => ({ ...previous, [tab.key]: started }));
  };

  return { tabEdits, setTabEdits, editField, confirmField, enterManually };
}
