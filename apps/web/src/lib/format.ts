import { format } from 'date-fns';

/** Spec §9 truck-list formats. */
export const formatDate = (value: Date | string) => format(new Date(value), 'MMM dd, yyyy');
export const formatTime = (value: Date | string) => format(new Date(value), 'HH:mm:ss');

/** A user's display name: the full name when set, else the username. */
export const displayName = (person: { fullName?: string | null; username: string }) =>
  person.fullName?.trim() || person.username;
