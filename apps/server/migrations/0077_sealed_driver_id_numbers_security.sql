-- Issue 26: drivers' ID numbers are sealed by the server (the key is not in the database), so
-- this migration cannot seal the rows stored before it: the keys.seal-stored-data job does, tenant
-- by tenant, finding them through this lookup (tenant ids only; rows still without a keyed hash).
GRANT SELECT ("id_number_hash") ON "drivers" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION drivers_unsealed_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct d.tenant_id from drivers d
  where d.id_number_hash is null
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION drivers_unsealed_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION drivers_unsealed_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION drivers_unsealed_tenants(integer) TO boomgate_app;
