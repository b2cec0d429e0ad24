-- Issue 28 (ADR 0009, "Uploads named by nothing"): the objects nodes uploaded on their own, kept
-- so the daily sweep finds those no row names without listing storage. Row-level security like
-- every tenant table (0001); the API role records an upload and the sweep (the worker, as the API
-- role in each tenant's transaction) removes the row. The sweep finds the tenants with uploads
-- past their grace through a lookup owned by boomgate_jobs (like 0016's), which reads tenant ids
-- and times only, never keys.
ALTER TABLE "site_sync_uploads" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "site_sync_uploads" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "site_sync_uploads" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON "site_sync_uploads" TO boomgate_app;--> statement-breakpoint
CREATE POLICY "jobs_uploads_sweep" ON "site_sync_uploads" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "uploaded_at") ON "site_sync_uploads" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION site_sync_uploads_due_tenants(p_before timestamptz, p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct u.tenant_id from site_sync_uploads u
  where u.uploaded_at < p_before
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION site_sync_uploads_due_tenants(timestamptz, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION site_sync_uploads_due_tenants(timestamptz, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION site_sync_uploads_due_tenants(timestamptz, integer) TO boomgate_app;
