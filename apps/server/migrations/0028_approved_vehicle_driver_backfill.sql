-- Links approved vehicles registered before 0026 to their driver: a vehicle without a driver_id
-- whose driver_license names exactly one driver of its tenant (drivers.licence_number) gets that
-- driver. Licence numbers are compared as the drivers contract stores them (whitespace removed,
-- upper case): drivers.licence_number is stored that way, approved_vehicles.driver_license only
-- trimmed (typed on the Registered Vehicles form). A licence shared by several drivers of the
-- tenant, or found in none, leaves the vehicle unlinked; a vehicle already linked is not touched.
-- Both tables FORCE row-level security and the migration runs with no tenant set, so the owner
-- lifts FORCE for the update and restores it (the migration runs in one transaction). The
-- counters' update trigger writes nothing: is_active and approved_until do not change.
ALTER TABLE "approved_vehicles" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "drivers" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
UPDATE "approved_vehicles" AS v
SET "driver_id" = m.driver_id
FROM (
  SELECT tenant_id,
         upper(regexp_replace(licence_number, '[[:space:]]', '', 'g')) AS licence,
         (array_agg(id))[1] AS driver_id
  FROM "drivers"
  WHERE licence_number IS NOT NULL
  GROUP BY 1, 2
  HAVING count(*) = 1
) AS m
WHERE v.driver_id IS NULL
  AND v.tenant_id = m.tenant_id
  AND m.licence <> ''
  AND upper(regexp_replace(v.driver_license, '[[:space:]]', '', 'g')) = m.licence;--> statement-breakpoint
ALTER TABLE "drivers" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "approved_vehicles" FORCE ROW LEVEL SECURITY;
