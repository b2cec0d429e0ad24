/**
 * Query keys of the gate data that more than one screen reads or changes, so a mutation on one
 * screen refreshes the lists on the others (e.g. a granted entry updates the dashboard).
 */
export const gateKeys = {
  dashboard: ['dashboard'] as const,
  entryLogs: ['entry-logs'] as const,
  approvedVehicles: ['approved-vehicles'] as const,
  truckList: ['truck-list'] as const,
  weighbridgeTickets: ['weighbridge-tickets'] as const,
  /** GET /api/verify-vehicle/{plate}, per plate (issue 21: the registered rig). */
  verifyVehicle: (plateNumber: string) => ['verify-vehicle', plateNumber] as const,
};
