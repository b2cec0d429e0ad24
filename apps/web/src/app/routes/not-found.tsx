import { FileQuestionIcon } from 'lucide-react';
import { Link } from 'wouter';

import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useTranslation } from '@/lib/i18n';

export default function NotFoundRoute() {
  const { t } = useTranslation('shared');
  useDocumentTitle(t('notFound.title'));

  return (
    <div className="flex flex-1 items-center justify-center">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col gap-4">
          <div className="flex items-center gap-2">
            <FileQuestionIcon aria-hidden className="size-8 text-destructive" />
            <h1 className="text-2xl font-bold">{t('notFound.title')}</h1>
          </div>
          <p className="text-sm text-muted-foreground">{t('notFound.description')}</p>
          <Link href={paths.dashboard} className="text-sm font-medium underline underline-offset-4">
            {t('notFound.home')}
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}
