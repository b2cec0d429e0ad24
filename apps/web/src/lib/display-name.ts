/** A user's display name: the full name when set, else the username. */
export const displayName = (person: { fullName?: string | null; username: string }) =>
  person.fullName?.trim() || person.username;
