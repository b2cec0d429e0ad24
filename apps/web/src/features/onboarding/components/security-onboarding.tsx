import { ArrowLeftIcon, ClipboardListIcon, QrCodeIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';

import { QrCodeImage } from '@/components/qr-code-image';

/**
 * Spec §2 security onboarding: a choice of QR or manual. The QR code opens this site's sign-in page
 * on the guard's phone (an offline site's address is hard to type); manual walks through the gate
 * workflow.
 */
export function SecurityOnboarding({
  backHref,
  workflowHref,
  usersHref,
  signInUrl,
}: {
  backHref: string;
  workflowHref: string;
  /** User Management, for those who may create users; otherwise the step is only described. */
  usersHref?: string;
  /** Absolute URL of this site's sign-in page, for the QR code. */
  signInUrl: string;
}) {
  const [isQrShown, setIsQrShown] = useState(false);
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader
        title="Security Onboarding"
        description="Get a new gate guard onto the system."
        actions={
          <Button variant="outline" asChild>
            <Link href={backHref}>
              <ArrowLeftIcon aria-hidden />
              Back
            </Link>
          </Button>
        }
      />
      <p className="text-sm text-muted-foreground">
        {usersHref ? (
          <>
            First create the guard&apos;s account in{' '}
            <Link
              href={usersHref}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              User Management
            </Link>
          </>
        ) : (
          <>
            First an administrator creates the guard&apos;s account in{' '}
            <span className="font-medium">User Management</span>
          </>
        )}{' '}
        with the Security Guard role and a temporary password; they choose their own password when
        they first sign in.
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <QrCodeIcon aria-hidden className="size-5 text-primary" />
              QR Code
            </CardTitle>
            <CardDescription>
              The guard scans the code with their phone to open this site&apos;s sign-in page.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {isQrShown ? (
              <div className="flex flex-col items-center gap-2">
                <QrCodeImage text={signInUrl} label={`QR code for ${signInUrl}`} />
                <p className="break-all text-center font-mono text-xs text-muted-foreground">
                  {signInUrl}
                </p>
              </div>
            ) : (
              <Button type="button" onClick={() => setIsQrShown(true)}>
                <QrCodeIcon aria-hidden />
                Show QR Code
              </Button>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <ClipboardListIcon aria-hidden className="size-5 text-primary" />
              Manual
            </CardTitle>
            <CardDescription>
              Walk the guard through the gate workflow: the auto gate, what each result means, when
              to use Real Gate Entry and who to call.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <Button asChild variant="outline" className="w-full">
              <Link href={workflowHref}>Start Manual Onboarding</Link>
            </Button>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
