import { CircleCheckBigIcon, ExternalLinkIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';

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

import {
  useAssignments,
  useDeleteAssignment,
  useDeleteSafetyVideo,
  useSafetyVideos,
} from '../api/induction';

import { AddVideoDialog } from './add-video-dialog';
import { AssignVideoDialog } from './assign-video-dialog';

const STATUS_LABELS: Record<InductionStatus, string> = {
  assigned: 'Assigned',
  in_progress: 'In Progress',
  failed: 'Failed',
  passed: 'Passed',
};

export function InductionStatusBadge({ status }: { status: InductionStatus }) {
  const variant =
    status === 'passed' ? 'success' : status === 'failed' ? 'destructive' : 'secondary';
  return (
    <Badge variant={variant}>
      {status === 'passed' && <CircleCheckBigIcon aria-hidden />}
      {STATUS_LABELS[status]}
    </Badge>
  );
}

const minutes = (seconds: number) =>
  seconds < 60
    ? `${Math.round(seconds)} s`
    : `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;

type Pending =
  { kind: 'video'; item: SafetyVideoSummary } | { kind: 'assignment'; item: InductionAssignment };

/** Safety videos with their quizzes, and who must watch which (tenant_admin and back_office). */
export function SafetyVideos() {
  const videos = useSafetyVideos();
  const assignments = useAssignments();
  const deleteVideo = useDeleteSafetyVideo();
  const deleteAssignment = useDeleteAssignment();
  const [confirming, setConfirming] = useState<Pending | null>(null);

  const handleConfirm = (pending: Pending) => {
    const onError = (error: Error) =>
      toast({
        variant: 'destructive',
        title: 'Delete Failed',
        description: getErrorMessage(error, 'Failed to delete'),
      });
    if (pending.kind === 'video') {
      deleteVideo.mutate(pending.item.id, {
        onSuccess: () => toast({ title: 'Video Deleted', description: pending.item.title }),
        onError,
      });
    } else {
      deleteAssignment.mutate(pending.item.id, {
        onSuccess: () =>
          toast({ title: 'Assignment Removed', description: pending.item.driverName }),
        onError,
      });
    }
  };

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <PageHeader
        title="Safety Videos"
        description="Induction videos with their quizzes, and the drivers who must pass them."
        actions={
          <>
            <AddVideoDialog />
            <AssignVideoDialog videos={videos.data ?? []} />
          </>
        }
      />

      <Card>
        <CardHeader>
          <CardTitle>Videos</CardTitle>
          {videos.data && <CardDescription>{videos.data.length} video(s)</CardDescription>}
        </CardHeader>
        <CardContent>
          {videos.isPending ? (
            <LoadingScreen label="Loading videos..." />
          ) : videos.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {getErrorMessage(videos.error, 'Failed to load videos')}
            </p>
          ) : videos.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">No safety videos yet. Add one to start.</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Title</TableHead>
                  <TableHead>Length</TableHead>
                  <TableHead className="hidden sm:table-cell">Questions</TableHead>
                  <TableHead className="hidden sm:table-cell">Pass Score</TableHead>
                  <TableHead className="hidden md:table-cell">Assignments</TableHead>
                  <TableHead className="text-right">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {videos.data.map((video) => (
                  <TableRow key={video.id} data-testid={`video-row-${video.id}`}>
                    <TableCell className="font-medium">
                      {video.title}
                      {video.source === 'url' && (
                        <Badge variant="outline" className="ml-2">
                          Link
                        </Badge>
                      )}
                    </TableCell>
                    <TableCell>{minutes(video.durationSeconds)}</TableCell>
                    <TableCell className="hidden sm:table-cell">{video.questionCount}</TableCell>
                    <TableCell className="hidden sm:table-cell">{video.passScore}%</TableCell>
                    <TableCell className="hidden md:table-cell">{video.assignmentCount}</TableCell>
                    <TableCell className="text-right">
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Delete ${video.title}`}
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
          <CardTitle>Assignments</CardTitle>
          {assignments.data && (
            <CardDescription>{assignments.data.length} assignment(s)</CardDescription>
          )}
        </CardHeader>
        <CardContent>
          {assignments.isPending ? (
            <LoadingScreen label="Loading assignments..." />
          ) : assignments.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {getErrorMessage(assignments.error, 'Failed to load assignments')}
            </p>
          ) : assignments.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">No assignments yet.</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Driver</TableHead>
                  <TableHead className="hidden md:table-cell">Video</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead className="hidden sm:table-cell">Attempts</TableHead>
                  <TableHead className="hidden lg:table-cell">Last Attempt</TableHead>
                  <TableHead className="text-right">Actions</TableHead>
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
                            Open
                          </Link>
                        </Button>
                        <Button
                          variant="ghost"
                          size="icon"
                          aria-label={`Remove assignment of ${assignment.driverName}`}
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
              {confirming?.kind === 'video' ? 'Delete Video?' : 'Remove Assignment?'}
            </AlertDialogTitle>
            <AlertDialogDescription>
              {confirming?.kind === 'video'
                ? `${confirming.item.title} and its quiz are deleted. A video that is still assigned cannot be deleted.`
                : confirming
                  ? `${confirming.item.driverName}'s assignment and its attempts are deleted; a pass recorded on it no longer counts at the gate.`
                  : ''}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              variant="destructive"
              onClick={() => {
                if (confirming) handleConfirm(confirming);
              }}
            >
              Delete
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
