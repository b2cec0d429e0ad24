import { useQueryClient } from '@tanstack/react-query';
import {
  CircleCheckBigIcon,
  CircleXIcon,
  RotateCcwIcon,
  TriangleAlertIcon,
  VideoIcon,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

import type {
  InductionAssignment,
  InductionResult,
  SafetyVideo,
} from '@boomgate/contracts/induction';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen, Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { apiUrl, getErrorMessage } from '@/lib/api-client';
import { formatDate, formatTime } from '@/lib/format';

import {
  inductionKeys,
  useAssignment,
  useRetakeInduction,
  useSafetyVideo,
  useSubmitInduction,
} from '../api/induction';

import { InductionQuiz } from './induction-quiz';
import { InductionVideo } from './induction-video';

export const NOT_FOUND_TEXT = 'Assignment or video not found. Please contact your supervisor.';

type Phase = 'video' | 'quiz' | 'result';

/** Spec §2/§4: /safety-induction/{assignmentId}: the video, then the quiz, then the result. */
export function SafetyInduction({ assignmentId }: { assignmentId: string }) {
  const assignment = useAssignment(assignmentId);
  const video = useSafetyVideo(assignment.data?.videoId);

  // Spec §8 toasts, once per failed load: the spec's string is the title, always shown; the
  // server's message (when it sent one) is the description.
  useEffect(() => {
    if (assignment.isError) {
      toast({
        variant: 'destructive',
        title: 'Failed to fetch assignment',
        description: getErrorMessage(assignment.error, '') || undefined,
      });
    }
  }, [assignment.isError, assignment.error]);
  useEffect(() => {
    if (video.isError) {
      toast({
        variant: 'destructive',
        title: 'Failed to fetch video',
        description: getErrorMessage(video.error, '') || undefined,
      });
    }
  }, [video.isError, video.error]);

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader
        title="Safety Induction"
        description="Watch the safety video, then take the quiz."
      />
      {assignment.isPending || (assignment.isSuccess && video.isPending) ? (
        <LoadingScreen label="Loading induction..." />
      ) : assignment.isError || video.isError || !assignment.data || !video.data ? (
        <Alert variant="destructive" role="alert">
          <TriangleAlertIcon aria-hidden />
          <AlertDescription>{NOT_FOUND_TEXT}</AlertDescription>
        </Alert>
      ) : (
        <InductionSession
          key={assignment.data.id}
          assignment={assignment.data}
          video={video.data}
        />
      )}
    </div>
  );
}

function InductionSession({
  assignment,
  video,
}: {
  assignment: InductionAssignment;
  video: SafetyVideo;
}) {
  const queryClient = useQueryClient();
  const submit = useSubmitInduction();
  const retake = useRetakeInduction();
  // A driver who already watched it (a reload after a failed attempt) goes straight to the quiz.
  const [phase, setPhase] = useState<Phase>(assignment.videoComplete ? 'quiz' : 'video');
  const [answers, setAnswers] = useState<(number | undefined)[]>(() =>
    video.questions.map(() => undefined),
  );
  const [result, setResult] = useState<InductionResult | null>(null);
  const watchedRef = useRef(assignment.watchedSeconds);

  if (assignment.status === 'passed' && !result) {
    return <PassedPanel assignment={assignment} video={video} />;
  }

  const handleSubmit = () => {
    if (answers.some((answer) => answer === undefined)) {
      toast({
        variant: 'destructive',
        title: 'Incomplete Quiz',
        description: 'Please answer all questions before submitting.',
      });
      return;
    }
    submit.mutate(
      {
        assignmentId: assignment.id,
        responses: answers as number[],
        videoWatchedSeconds: watchedRef.current,
      },
      {
        onSuccess: (outcome) => {
          setResult(outcome);
          setPhase('result');
          if (!outcome.passed) {
            toast({
              variant: 'destructive',
              title: 'Not Passed',
              description: `You scored ${outcome.score}%. You need ${outcome.passScore}% to pass.`,
            });
          }
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Submission Failed',
            description: getErrorMessage(error, 'Failed to submit the quiz'),
          }),
      },
    );
  };

  const retryQuiz = () => {
    setAnswers(video.questions.map(() => undefined));
    setResult(null);
    setPhase('quiz');
  };

  const rewatch = () => {
    retake.mutate(assignment.id, {
      onSuccess: () => {
        watchedRef.current = 0;
        setAnswers(video.questions.map(() => undefined));
        setResult(null);
        setPhase('video');
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: getErrorMessage(error, 'Failed to reset the video'),
        }),
    });
  };

  return (
    <>
      <DriverCard assignment={assignment} video={video} />
      {phase === 'video' && (
        <InductionVideo
          assignmentId={assignment.id}
          video={video}
          startWatchedSeconds={retake.isSuccess ? 0 : assignment.watchedSeconds}
          onWatched={(seconds) => {
            watchedRef.current = seconds;
          }}
          onComplete={() => {
            setPhase('quiz');
            void queryClient.invalidateQueries({
              queryKey: inductionKeys.assignment(assignment.id),
            });
          }}
        />
      )}
      {phase === 'quiz' && (
        <InductionQuiz
          questions={video.questions}
          answers={answers}
          onAnswer={(index, option) =>
            setAnswers((current) => current.map((value, i) => (i === index ? option : value)))
          }
          onSubmit={handleSubmit}
          isSubmitting={submit.isPending}
        />
      )}
      {phase === 'result' && result && (
        <ResultPanel
          result={result}
          onRetryQuiz={retryQuiz}
          onRewatch={rewatch}
          isResetting={retake.isPending}
        />
      )}
    </>
  );
}

function DriverCard({
  assignment,
  video,
}: {
  assignment: InductionAssignment;
  video: SafetyVideo;
}) {
  return (
    <Card>
      <CardHeader className="flex flex-row items-center gap-4">
        {assignment.driverImage ? (
          <img
            src={apiUrl(assignment.driverImage)}
            alt={assignment.driverName}
            className="size-16 shrink-0 rounded-md border object-cover"
          />
        ) : (
          <div className="flex size-16 shrink-0 items-center justify-center rounded-md border bg-muted">
            <VideoIcon aria-hidden className="size-6 text-muted-foreground" />
          </div>
        )}
        <div className="flex min-w-0 flex-col gap-1">
          <CardTitle className="truncate">{video.title}</CardTitle>
          <CardDescription>
            {assignment.driverName} · ID {assignment.driverIdNumber}
          </CardDescription>
          {video.description && (
            <p className="text-sm text-muted-foreground">{video.description}</p>
          )}
        </div>
      </CardHeader>
    </Card>
  );
}

function PassedPanel({
  assignment,
  video,
}: {
  assignment: InductionAssignment;
  video: SafetyVideo;
}) {
  return (
    <>
      <DriverCard assignment={assignment} video={video} />
      <Alert variant="success" data-testid="induction-passed">
        <CircleCheckBigIcon aria-label="Passed" role="img" />
        <AlertTitle>Induction Passed</AlertTitle>
        <AlertDescription>
          {assignment.passedAt
            ? `Passed on ${`${formatDate(assignment.passedAt)} ${formatTime(assignment.passedAt)}`}${assignment.lastScore !== null ? ` with ${assignment.lastScore}%` : ''}.`
            : 'This induction has been passed.'}
        </AlertDescription>
      </Alert>
    </>
  );
}

function ResultPanel({
  result,
  onRetryQuiz,
  onRewatch,
  isResetting,
}: {
  result: InductionResult;
  onRetryQuiz: () => void;
  onRewatch: () => void;
  isResetting: boolean;
}) {
  return (
    <Card data-testid="induction-result">
      <CardHeader className="flex flex-row items-center gap-3">
        {result.passed ? (
          <CircleCheckBigIcon aria-label="Passed" role="img" className="size-8 text-success" />
        ) : (
          <CircleXIcon aria-label="Not passed" role="img" className="size-8 text-destructive" />
        )}
        <div className="flex flex-col gap-1">
          <CardTitle>{result.passed ? 'Induction Passed' : 'Not Passed'}</CardTitle>
          <CardDescription>
            {result.passed
              ? 'Well done. Your induction has been recorded.'
              : `You scored ${result.score}%. You need ${result.passScore}% to pass.`}
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
          <Figure label="Score" value={`${result.score}%`} />
          <Figure label="Pass score" value={`${result.passScore}%`} />
          <Figure label="Correct answers" value={String(result.correctAnswers)} />
          <Figure label="Total questions" value={String(result.totalQuestions)} />
        </dl>
        {!result.passed && (
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button onClick={onRetryQuiz}>
              <RotateCcwIcon aria-hidden />
              Retry Quiz
            </Button>
            <Button variant="outline" onClick={onRewatch} disabled={isResetting}>
              {isResetting ? <Spinner /> : <VideoIcon aria-hidden />}
              Rewatch Video
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-md border p-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd
        className="text-lg font-semibold"
        data-testid={`result-${label.toLowerCase().replaceAll(' ', '-')}`}
      >
        {value}
      </dd>
    </div>
  );
}
