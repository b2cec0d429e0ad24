import type { ReactNode } from 'react';

import { useDocumentTitle } from '@/hooks/use-document-title';

import { BrandMark } from '@/components/ui/brand-mark';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { LanguagePicker } from '@/components/language-picker';
import { ThemeToggle } from '@/components/ui/theme-toggle';

/** The centred card that frames the signed-out screens. */
export function AuthLayout({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <div className="flex min-h-svh flex-col bg-muted/40">
      <header className="flex items-center justify-between px-4 py-3">
        <div className="flex items-center gap-2 font-semibold">
          <BrandMark />
          <span>Boomgate</span>
        </div>
        <div className="flex items-center gap-1">
          <LanguagePicker />
          <ThemeToggle />
        </div>
      </header>
      <main className="flex flex-1 items-center justify-center px-4 pb-12">
        <Card className="w-full max-w-md">
          <CardHeader>
            <h1 className="text-2xl font-bold leading-tight">{title}</h1>
            <CardDescription>{description}</CardDescription>
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
      </main>
    </div>
  );
}
