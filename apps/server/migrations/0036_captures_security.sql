-- Captures (issue 14): row-level security like every tenant table (0001), and the API role's
-- privileges. A capture's image key, type, reading source and creation are fixed once written;
-- the API changes only its citation count, citation time, expiry and (erasure) its reading.
ALTER TABLE "captures" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "captures" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "captures" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON "captures" TO boomgate_app;--> statement-breakpoint
GRANT UPDATE ("citations", "cited_at", "expires_at", "reading") ON "captures" TO boomgate_app;--> statement-breakpoint
-- The hourly retention job's lookup (as for 0016/0022): only tenant and capture ids leave the
-- function; the deletion runs in that tenant's transaction and checks the row again.
CREATE POLICY "jobs_retention" ON "captures" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "citations", "expires_at") ON "captures" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION captures_due_purge(p_now timestamptz, p_limit integer)
RETURNS TABLE (tenant_id uuid, capture_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select c.tenant_id, c.id from captures c
  where c.citations = 0 and c.expires_at <= p_now
  order by c.expires_at
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION captures_due_purge(timestamptz, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION captures_due_purge(timestamptz, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION captures_due_purge(timestamptz, integer) TO boomgate_app;
