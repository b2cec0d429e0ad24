-- Issue 26: watchlist ID numbers are sealed by the server (value: sv1.…, match_key: the keyed hash).
-- The rows stored before are sealed by the keys.seal-stored-data job, which finds their tenants
-- through this lookup (tenant ids only).
CREATE POLICY "jobs_sealing" ON "watchlist_entries" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "kind", "value") ON "watchlist_entries" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION watchlist_unsealed_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct w.tenant_id from watchlist_entries w
  where w.kind = 'idNumber' and w.value not like 'sv1.%'
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION watchlist_unsealed_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION watchlist_unsealed_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION watchlist_unsealed_tenants(integer) TO boomgate_app;
