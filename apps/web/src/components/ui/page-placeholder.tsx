import type { ReactNode } from 'react';

import { useDocumentTitle } from '@/hooks/use-document-title';
import { useTranslation } from '@/lib/i18n';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from './card';

/** A titled page whose screen is not built yet: the heading is real, the body says so. */
export function PagePlaceholder({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation('shared');
  useDocumentTitle(title);
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
        {description && <p className="text-muted-foreground">{description}</p>}
      </header>
      <Card>
        <CardHeader>
          <CardTitle>{t('placeholder.title')}</CardTitle>
          <CardDescription>{t('placeholder.description')}</CardDescription>
        </CardHeader>
        {children && <CardContent>{children}</CardContent>}
      </Card>
    </div>
  );
}
