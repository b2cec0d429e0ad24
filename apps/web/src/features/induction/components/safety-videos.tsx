import { CircleCheckBigIcon, ExternalLinkIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';

import { LANGUAGE_NATIVE_NAMES } from '@boomgate/contracts/preferences';

import type {
  InductionAssignment,
  InductionStatus,
  SafetyVideoSummary,
} from '@boomgate/contracts/induction';

import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen } from '@/components/ui/spinner';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { formatDate, formatTime } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

import {
  useAssignments,
  useDeleteAssignment,
  useDeleteSafetyVideo,
  useSafetyVideos,
} from '../api/induction';

import { AddVideoDialog } from './add-video-dialog';
import { AssignVideoDialog } from './assign-video-dialog';

export function InductionStatusBadge({ status }: { status: InductionStatus }) {
  const { t } = useTranslation('induction');
  const variant =
    status === 'passed' ? 'success' : status === 'failed' ? 'destructive' : 'secondary';
  return (
    <Badge variant={variant}>
      {status === 'passed' && <CircleCheckBigIcon aria-hidden />}
      {t(`admin.status.${status}`)}
    </Badge>
  );
}

/** A video's length in the catalogue's units: "45 s" or "2 min 5 s". */
function useVideoLength() {
  const { t } = useTranslation('induction');
  return (seconds: number) =>
    seconds < 60
      ? t('admin.seconds', { seconds: Math.round(seconds) })
      : t('admin.minutesSeconds', {
          minutes: Math.floor(seconds / 60),
          seconds: Math.round(seconds % 60),
        });
}

type Pending =
  { kind: 'video'; item: SafetyVideoSummary } | { kind: 'assignment'; item: InductionAssignment };

/** Safety videos with their quizzes, and who must watch which (tenant_admin and back_office). */
export function SafetyVideos() {
  const { t } = useTranslation('induction');
  const minutes = useVideoLength();
  const videos = useSafetyVideos();
  const assignments = useAssignments();
  const deleteVideo = useDeleteSafetyVideo();
  const deleteAssignment = useDeleteAssignment();
  const [confirming, setConfirming] = useState<Pending | null>(null);

  const handleConfirm = (pending: Pending) => {
    const onError = (error: Error) =>
      toast({
        variant: 'destructive',
        title: t('admin.deleteFailed'),
        description: getErrorMessage(error, t('admin.deleteFailedFallback')),
      });
    if (pending.kind === 'video') {
      deleteVideo.mutate(pending.item.id, {
        onSuccess: () => toast({ title: t('admin.videoDeleted'), description: pending.item.title }),
        onError,
      });
    } else {
      deleteAssignment.mutate(pending.item.id, {
        onSuccess: () =>
          toast({ title: t('admin.assignmentRemoved'), description: pending.item.driverName }),
        onError,
      });
    }
  };

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader
        title={t('admin.title')}
        description={t('admin.description')}
        actions={
          <>
            <AddVideoDialog videos={videos.data ?? []} />
            <AssignVideoDialog videos={videos.data ?? []} />
          </>
        }
      />

      <Card>
        <CardHeader>
          <CardTitle>{t('admin.videos')}</CardTitle>
          {videos.data && (
            <CardDescription>
              {t('admin.videoCount', { count: videos.data.length })}
            </CardDescription>
          )}
        </CardHeader>
        <CardContent>
          {videos.isPending ? (
            <LoadingScreen label={t('admin.loadingVideos')} />
          ) : videos.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {getErrorMessage(videos.error, t('admin.loadVideosFailed'))}
            </p>
          ) : videos.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t('admin.noVideos')}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t('admin.columns.title')}</TableHead>
                  <TableHead className="hidden sm:table-cell">
                    {t('admin.columns.language')}
                  </TableHead>
                  <TableHead>{t('admin.columns.length')}</TableHead>
                  <TableHead className="hidden sm:table-cell">
                    {t('admin.columns.questions')}
                  </TableHead>
                  <TableHead className="hidden sm:table-cell">
                    {t('admin.columns.passScore')}
                  </TableHead>
                  <TableHead className="hidden md:table-cell">
                    {t('admin.columns.assignments')}
                  </TableHead>
                  <TableHead className="text-right">{t('admin.columns.actions')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {videos.data.map((video) => (
                  <TableRow key={video.id} data-testid={`video-row-${video.id}`}>
                    <TableCell className="font-medium">
                      {video.title}
                      {video.source === 'url' && (
                        <Badge variant="outline" className="ml-2">
                          {t('admin.link')}
                        </Badge>
                      )}
                    </TableCell>
                    <TableCell className="hidden sm:table-cell" lang={video.language}>
                      {LANGUAGE_NATIVE_NAMES[video.language]}
                    </TableCell>
                    <TableCell data-testid="video-length">
                      {minutes(video.durationSeconds)}
                    </TableCell>
                    <TableCell className="hidden sm:table-cell">{video.questionCount}</TableCell>
                    <TableCell className="hidden sm:table-cell">{video.passScore}%</TableCell>
                    <TableCell className="hidden md:table-cell">{video.assignmentCount}</TableCell>
                    <TableCell className="text-right">
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={t('admin.deleteVideoLabel', { title: video.title })}
                        onClick={() => setConfirming({ kind: 'video', item: video })}
                      >
                        <Trash2Icon aria-hidden />
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t('admin.assignments')}</CardTitle>
          {assignments.data && (
            <CardDescription>
              {t('admin.assignmentCount', { count: assignments.data.length })}
            </CardDescription>
          )}
        </CardHeader>
        <CardContent>
          {assignments.isPending ? (
            <LoadingScreen label={t('admin.loadingAssignments')} />
          ) : assignments.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {getErrorMessage(assignments.error, t('admin.loadAssignmentsFailed'))}
            </p>
          ) : assignments.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t('admin.noAssignments')}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t('admin.columns.driver')}</TableHead>
                  <TableHead className="hidden md:table-cell">{t('admin.columns.video')}</TableHead>
                  <TableHead>{t('admin.columns.status')}</TableHead>
                  <TableHead className="hidden sm:table-cell">
                    {t('admin.columns.attempts')}
                  </TableHead>
                  <TableHead className="hidden lg:table-cell">
                    {t('admin.columns.lastAttempt')}
                  </TableHead>
                  <TableHead className="text-right">{t('admin.columns.actions')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {assignments.data.map((assignment) => (
                  <TableRow key={assignment.id} data-testid={`assignment-row-${assignment.id}`}>
                    <TableCell>
                      <div className="font-medium">{assignment.driverName}</div>
                      <div className="text-xs text-muted-foreground">
                        {assignment.driverIdNumber}
                      </div>
                    </TableCell>
                    <TableCell className="hidden md:table-cell">{assignment.videoTitle}</TableCell>
                    <TableCell>
                      <InductionStatusBadge status={assignment.status} />
                    </TableCell>
                    <TableCell className="hidden sm:table-cell">{assignment.attempts}</TableCell>
                    <TableCell className="hidden lg:table-cell">
                      {assignment.lastAttemptAt
                        ? `${formatDate(assignment.lastAttemptAt)} ${formatTime(assignment.lastAttemptAt)}`
                        : '-'}
                    </TableCell>
                    <TableCell className="text-right">
                      <div className="flex justify-end gap-1">
                        <Button asChild variant="ghost" size="sm">
                          <Link href={paths.safetyInduction(assignment.id)}>
                            <ExternalLinkIcon aria-hidden />
                            {t('admin.open')}
                          </Link>
                        </Button>
                        <Button
                          variant="ghost"
                          size="icon"
                          aria-label={t('admin.removeAssignmentLabel', {
                            name: assignment.driverName,
                          })}
                          onClick={() => setConfirming({ kind: 'assignment', item: assignment })}
                        >
                          <Trash2Icon aria-hidden />
                        </Button>
                      </div>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>

      <AlertDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>
              {confirming?.kind === 'video'
                ? t('admin.deleteVideoTitle')
                : t('admin.removeAssignmentTitle')}
            </AlertDialogTitle>
            <AlertDialogDescription>
              {confirming?.kind === 'video'
                ? t('admin.deleteVideoDescription', { title: confirming.item.title })
                : confirming
                  ? t('admin.removeAssignmentDescription', { name: confirming.item.driverName })
                  : ''}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>{t('admin.cancel')}</AlertDialogCancel>
            <AlertDialogAction
              variant="destructive"
              onClick={() => {
                if (confirming) handleConfirm(confirming);
              }}
            >
              {t('admin.delete')}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
