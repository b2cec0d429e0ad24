import { cn } from '@/lib/cn';

import { REAL_GATE_STEPS, type RealGateState, currentStep } from './real-gate-machine';
import { STEP_SHAPE } from './real-gate-steps';

/**
 * Issue 19: on a phone Real Gate is one step at a time. Under the progress bar, the nine steps as
 * numbered dots (done, failed, current, to come) show where the guard is; the list below shows the
 * current step first and the finished ones compact, and leaves the steps to come out (see
 * `StepItem`). Hidden from assistive technology: the progress bar's label says the same.
 */
export function RealGateStepDots({ state }: { state: RealGateState }) {
  const current = currentStep(state);
  return (
    <ol aria-hidden="true" className="flex justify-between gap-1 md:hidden" data-testid="step-dots">
      {REAL_GATE_STEPS.map((id) => {
        const status = state.statuses[id];
        return (
          <li
            key={id}
            data-status={status}
            className={cn(
              'flex size-8 items-center justify-center rounded-full border text-sm font-semibold',
              status === 'success' && 'border-success bg-success text-success-foreground',
              status === 'failed' && 'border-destructive bg-destructive text-white',
              status !== 'success' && status !== 'failed' && 'text-muted-foreground',
              id === current && 'ring-2 ring-primary ring-offset-2 ring-offset-background',
            )}
          >
            {STEP_SHAPE[id].number}
          </li>
        );
      })}
    </ol>
  );
}
