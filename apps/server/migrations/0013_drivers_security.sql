-- Row-level security for drivers (same policy as 0001/0003) and the API role's privileges.
ALTER TABLE "drivers" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "drivers" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "drivers" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "drivers" TO boomgate_app;--> statement-breakpoint
-- The selfie purge looks across tenants like the approved-vehicle purge (0008): it sees only which
-- tenant and row are due, then purges each inside that tenant's transaction.
CREATE POLICY "jobs_biometric_purge" ON "drivers" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "biometrics_purge_after") ON "drivers" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION drivers_due_biometric_purge(p_now timestamptz, p_limit integer)
RETURNS TABLE (tenant_id uuid, driver_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select d.tenant_id, d.id from drivers d
  where d.biometrics_purge_after is not null and d.biometrics_purge_after <= p_now
  order by d.biometrics_purge_after
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION drivers_due_biometric_purge(timestamptz, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION drivers_due_biometric_purge(timestamptz, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION drivers_due_biometric_purge(timestamptz, integer) TO boomgate_app;
