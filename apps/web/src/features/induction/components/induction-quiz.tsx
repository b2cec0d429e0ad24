import type { QuizQuestion } from '@boomgate/contracts/induction';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { useTranslation } from '@/lib/i18n';

/** One radio group per question; the page only knows the options, never which is right. */
export function InductionQuiz({
  questions,
  answers,
  onAnswer,
  onSubmit,
  isSubmitting,
}: {
  questions: QuizQuestion[];
  answers: (number | undefined)[];
  onAnswer: (questionIndex: number, optionIndex: number) => void;
  onSubmit: () => void;
  isSubmitting: boolean;
}) {
  const { t } = useTranslation('induction');
  const answered = answers.filter((answer) => answer !== undefined).length;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('quiz.title')}</CardTitle>
        <CardDescription>
          {t('quiz.answerEvery', { answered, total: questions.length })}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          className="flex flex-col gap-6"
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          {questions.map((question, questionIndex) => (
            <fieldset key={questionIndex} className="flex flex-col gap-2">
              <legend className="mb-2 font-medium">
                {questionIndex + 1}. {question.question}
              </legend>
              {question.options.map((option, optionIndex) => {
                const id = `q${questionIndex}-o${optionIndex}`;
                const checked = answers[questionIndex] === optionIndex;
                return (
                  <label
                    key={optionIndex}
                    htmlFor={id}
                    className={cn(
                      'flex min-h-11 cursor-pointer items-center gap-3 rounded-md border px-3 py-2 text-sm',
                      checked && 'border-primary bg-primary/5',
                    )}
                  >
                    <input
                      id={id}
                      type="radio"
                      name={`question-${questionIndex}`}
                      className="size-4 accent-primary"
                      checked={checked}
                      onChange={() => onAnswer(questionIndex, optionIndex)}
                    />
                    {option}
                  </label>
                );
              })}
            </fieldset>
          ))}
          <Button type="submit" disabled={isSubmitting} className="self-start">
            {isSubmitting && <Spinner />}
            {t('quiz.submit')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
