-- POPIA minimality (issue 8): the driver photo taken at a safety-induction assignment is biometric
-- data like an approval's driver photo, so it ends after the tenant's biometric period (the server
-- default when the tenant has none), counted from the assignment. As for 0008/0013/0016, the daily
-- job's lookup (boomgate_jobs) sees only which tenant and assignment are due; the purge itself runs
-- inside that tenant's transaction.
CREATE POLICY "jobs_retention" ON "induction_assignments" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "created_at", "driver_photo_key") ON "induction_assignments" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION induction_assignments_due_photo_purge(p_now timestamptz, p_default_days integer, p_limit integer)
RETURNS TABLE (tenant_id uuid, assignment_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select a.tenant_id, a.id from induction_assignments a join tenants t on t.id = a.tenant_id
  where a.driver_photo_key is not null
    and a.created_at + make_interval(days => coalesce(t.biometric_retention_days, p_default_days)) <= p_now
  order by a.created_at
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION induction_assignments_due_photo_purge(timestamptz, integer, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION induction_assignments_due_photo_purge(timestamptz, integer, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION induction_assignments_due_photo_purge(timestamptz, integer, integer) TO boomgate_app;
