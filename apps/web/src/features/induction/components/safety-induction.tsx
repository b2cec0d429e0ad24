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
import { useTranslation } from '@/lib/i18n';

import {
  inductionKeys,
  useAssignment,
  useRetakeInduction,
  useSafetyVideo,
  useSubmitInduction,
} from '../api/induction';

import { InductionQuiz } from './induction-quiz';
import { InductionVideo } from './induction-video';

type Phase = 'video' | 'quiz' | 'result';

/** Spec §2/§4: /safety-induction/{assignmentId}: the video, then the quiz, then the result. */
export function SafetyInduction({ assignmentId }: { assignmentId: string }) {
  const { t } = useTranslation('induction');
  const assignment = useAssignment(assignmentId);
  const video = useSafetyVideo(assignment.data?.videoId);

  // Spec §8 toasts, once per failed load: the spec's string is the title, always shown; the
  // server's message (when it sent one) is the description.
  useEffect(() => {
    if (assignment.isError) {
      toast({
        variant: 'destructive',
        title: t('fetchAssignmentFailed'),
        description: getErrorMessage(assignment.error, '') || undefined,
      });
    }
  }, [assignment.isError, assignment.error, t]);
  useEffect(() => {
    if (video.isError) {
      toast({
        variant: 'destructive',
        title: t('fetchVideoFailed'),
        description: getErrorMessage(video.error, '') || undefined,
      });
    }
  }, [video.isError, video.error, t]);

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader title={t('title')} description={t('description')} />
      {assignment.isPending || (assignment.isSuccess && video.isPending) ? (
        <LoadingScreen label={t('loading')} />
      ) : assignment.isError || video.isError || !assignment.data || !video.data ? (
        <Alert variant="destructive" role="alert">
          <TriangleAlertIcon aria-hidden />
          <AlertDescription>{t('notFound')}</AlertDescription>
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
  const { t } = useTranslation('induction');
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
        title: t('incompleteTitle'),
        description: t('incompleteDescription'),
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
              title: t('notPassed'),
              description: t('scoredBelow', {
                score: outcome.score,
                passScore: outcome.passScore,
              }),
            });
          }
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: t('submissionFailed'),
            description: getErrorMessage(error, t('submitFailed')),
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
          title: t('error'),
          description: getErrorMessage(error, t('resetFailed')),
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
  const { t } = useTranslation('induction');
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
            {assignment.driverName} · {t('idLabel', { idNumber: assignment.driverIdNumber })}
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
  const { t } = useTranslation('induction');
  const when = assignment.passedAt
    ? `${formatDate(assignment.passedAt)} ${formatTime(assignment.passedAt)}`
    : null;
  return (
    <>
      <DriverCard assignment={assignment} video={video} />
      <Alert variant="success" data-testid="induction-passed">
        <CircleCheckBigIcon aria-label={t('passedIcon')} role="img" />
        <AlertTitle>{t('passed')}</AlertTitle>
        <AlertDescription>
          {when === null
            ? t('alreadyPassed')
            : assignment.lastScore !== null
              ? t('passedOnWithScore', { when, score: assignment.lastScore })
              : t('passedOn', { when })}
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
  const { t } = useTranslation('induction');
  return (
    <Card data-testid="induction-result">
      <CardHeader className="flex flex-row items-center gap-3">
        {result.passed ? (
          <CircleCheckBigIcon
            aria-label={t('passedIcon')}
            role="img"
            className="size-8 text-success"
          />
        ) : (
          <CircleXIcon
            aria-label={t('notPassedIcon')}
            role="img"
            className="size-8 text-destructive"
          />
        )}
        <div className="flex flex-col gap-1">
          <CardTitle>{result.passed ? t('passed') : t('notPassed')}</CardTitle>
          <CardDescription>
            {result.passed
              ? t('wellDone')
              : t('scoredBelow', { score: result.score, passScore: result.passScore })}
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
          <Figure testId="score" label={t('score')} value={`${result.score}%`} />
          <Figure testId="pass-score" label={t('passScore')} value={`${result.passScore}%`} />
          <Figure
            testId="correct-answers"
            label={t('correctAnswers')}
            value={String(result.correctAnswers)}
          />
          <Figure
            testId="total-questions"
            label={t('totalQuestions')}
            value={String(result.totalQuestions)}
          />
        </dl>
        {!result.passed && (
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button onClick={onRetryQuiz}>
              <RotateCcwIcon aria-hidden />
              {t('retryQuiz')}
            </Button>
            <Button variant="outline" onClick={onRewatch} disabled={isResetting}>
              {isResetting ? <Spinner /> : <VideoIcon aria-hidden />}
              {t('rewatch')}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function Figure({ testId, label, value }: { testId: string; label: string; value: string }) {
  return (
    <div className="rounded-md border p-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold" data-testid={`result-${testId}`}>
        {value}
      </dd>
    </div>
  );
}
