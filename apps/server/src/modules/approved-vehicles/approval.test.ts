import { describe, expect, it } from 'vitest';

import { approvalStatus } from './approval';

describe('approvalStatus', () => {
  it('approves an active vehicle with no end date', () => {
    expect(approvalStatus({ isActive: true, approvedUntil: null }, '2026-11-22')).toBe('approved');
  });

  it('still approves on the last day of the approval and expires the day after', () => {
    const vehicle = { isActive: true, approvedUntil: '2026-11-22' };

    expect(approvalStatus(vehicle, '2026-11-22')).toBe('approved');
    expect(approvalStatus(vehicle, '2026-11-23')).toBe('expired');
  });

  it('refuses a vehicle switched off and one not registered', () => {
    expect(approvalStatus({ isActive: false, approvedUntil: null }, '2026-11-22')).toBe('inactive');
    expect(approvalStatus(undefined, '2026-11-22')).toBe('not_registered');
  });
});

describe('approvalStatus of a proposal (separation of duties)', () => {
  it('approves nothing a security guard proposed until it is confirmed', () => {
    expect(
      approvalStatus({ isActive: true, approvedUntil: null, proposal: 'register' }, '2026-11-22'),
    ).toBe('pending_approval');
  });

  it('keeps a vehicle whose deletion is proposed approved until the deletion is confirmed', () => {
    expect(
      approvalStatus({ isActive: true, approvedUntil: null, proposal: 'delete' }, '2026-11-22'),
    ).toBe('approved');
  });
});
