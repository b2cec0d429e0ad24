import { describe, expect, it } from 'vitest';

import { paths } from '@/config/paths';

import { LoginRoute, RegisterRoute, screenAt, signedInScreens } from './screens';

const screenOf = (path: string) => signedInScreens.find((entry) => entry.path === path)?.screen;

describe('screenAt', () => {
  it('finds the screen of any deep link, so its code loads beside the session check', () => {
    expect(screenAt(paths.reports)).toBe(screenOf(paths.reports));
    expect(screenAt(paths.sitesSettings)).toBe(screenOf(paths.sitesSettings));
    expect(screenAt(paths.rollCall())).toBe(screenOf(paths.rollCall()));
    expect(screenAt(paths.reports)).not.toBe(screenAt(paths.audit));
  });

  it('matches patterns with parameters as the router does', () => {
    expect(screenAt(paths.entryLog('0190a7c2-aaaa'))).toBe(screenOf('/entry-logs/:id'));
    expect(screenAt(paths.safetyInduction('assignment-42'))).toBe(
      screenOf('/safety-induction/:assignmentId'),
    );
    expect(screenAt('/entry-logs')).toBeUndefined();
  });

  it('gives the sign-in screens for the guest paths and nothing for an unknown path', () => {
    expect(screenAt(paths.login)).toBe(LoginRoute);
    expect(screenAt(paths.register)).toBe(RegisterRoute);
    expect(screenAt('/no-such-screen')).toBeUndefined();
  });
});
