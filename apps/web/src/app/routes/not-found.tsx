import { FileQuestionIcon } from 'lucide-react';
import { Link } from 'wouter';

import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function NotFoundRoute() {
  useDocumentTitle('404 Page Not Found');

  return (
    <div className="flex flex-1 items-center justify-center">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col gap-4">
          <div className="flex items-center gap-2">
            <FileQuestionIcon aria-hidden className="size-8 text-destructive" />
            <h1 className="text-2xl font-bold">404 Page Not Found</h1>
          </div>
          <p className="text-sm text-muted-foreground">
            There is no page at this address. Check the link, or go back to the dashboard.
          </p>
          <Link href={paths.dashboard} className="text-sm font-medium underline underline-offset-4">
            Go to the dashboard
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}
