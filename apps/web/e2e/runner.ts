/** A deliberately small step runner: a flow is a list of steps; the first failure ends the flow. */

export type StepResult = {
  flow: string;
  step: string;
  status: 'passed' | 'failed' | 'skipped';
  error?: string;
};

export type Flow = {
  name: string;
  step: (name: string, run: () => Promise<void>) => Promise<void>;
  hasFailed: () => boolean;
};

export function createRunner({
  onFailure,
}: {
  onFailure: (flow: string, step: string) => Promise<void>;
}) {
  const results: StepResult[] = [];

  function flow(name: string): Flow {
    let failed = false;
    return {
      name,
      hasFailed: () => failed,
      async step(stepName, run) {
        if (failed) {
          results.push({ flow: name, step: stepName, status: 'skipped' });
          console.log(`  - [${name}] ${stepName} (skipped: an earlier step failed)`);
          return;
        }
        const startedAt = Date.now();
        try {
          await run();
          results.push({ flow: name, step: stepName, status: 'passed' });
          console.log(`  ✓ [${name}] ${stepName} (${Date.now() - startedAt} ms)`);
        } catch (error) {
          failed = true;
          const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
          results.push({ flow: name, step: stepName, status: 'failed', error: message });
          console.log(`  ✗ [${name}] ${stepName}\n${indent(message)}`);
          await onFailure(name, stepName).catch(() => undefined);
        }
      },
    };
  }

  /** Steps that did not pass (failed, or skipped because of a failure) count as failed. */
  function summary() {
    const passed = results.filter((result) => result.status === 'passed').length;
    return { passed, failed: results.length - passed, results };
  }

  return { flow, summary };
}

function indent(text: string) {
  return text
    .split('\n')
    .slice(0, 12)
    .map((line) => `      ${line}`)
    .join('\n');
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
