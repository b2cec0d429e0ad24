import {
  DOCUMENT_RULE_CODES,
  type DocumentRuleCode,
  type RuleSetting,
  RuleSettingSchema,
} from '@boomgate/contracts/document-rules';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { nativeSelectClass } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useDocumentRules, useUpdateDocumentRules } from '../api/document-rules';

const SETTINGS = RuleSettingSchema.options;

/**
 * Issue 21: the organization's document rules, each `block` (the server refuses the entry),
 * `warn` (granted with the rule's warning) or `off`. Administrators change them; back office
 * staff see them, so they know why an entry was refused.
 */
export function DocumentRulesSection({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('settings');
  const rules = useDocumentRules();
  const update = useUpdateDocumentRules();

  const change = async (code: DocumentRuleCode, setting: RuleSetting) => {
    try {
      await update.mutateAsync({ rules: { [code]: setting } });
      toast({ title: t('rules.saved'), description: t(`rules.codes.${code}`) });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t('rules.saveFailed'),
        description: getErrorMessage(error, t('rules.tryAgain')),
      });
    }
  };

  return (
    <Card data-testid="document-rules-section">
      <CardHeader>
        <CardTitle>{t('rules.title')}</CardTitle>
        <CardDescription>{t('rules.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {rules.isPending ? (
          <Spinner />
        ) : rules.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {getErrorMessage(rules.error, t('loadFailed'))}
          </p>
        ) : (
          <ul className="grid gap-3">
            {DOCUMENT_RULE_CODES.map((code) => (
              <li key={code} className="grid gap-1 sm:grid-cols-[1fr_10rem] sm:items-center">
                <label htmlFor={`rule-${code}`} className="text-sm">
                  {t(`rules.codes.${code}`)}
                </label>
                <select
                  id={`rule-${code}`}
                  className={nativeSelectClass}
                  value={rules.data.rules[code]}
                  disabled={!canEdit || update.isPending}
                  onChange={(event) => void change(code, event.target.value as RuleSetting)}
                >
                  {SETTINGS.map((setting) => (
                    <option key={setting} value={setting}>
                      {t(`rules.settings.${setting}`)}
                    </option>
                  ))}
                </select>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
