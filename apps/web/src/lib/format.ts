import { format } from 'date-fns';

/** Spec §9 truck-list formats. */
export const formatDate = (value: Date | string) => format(new Date(value), 'MMM dd, yyyy');
export const formatTime = (value: Date | string) => format(new Date(value), 'HH:mm:ss');

// Kept in its own module so the sign-in screens and the app shell do not load date-fns for it.
export { displayName } from './display-name';
