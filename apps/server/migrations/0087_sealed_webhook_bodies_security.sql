-- Issue 26: callback bodies in the outbox are sealed by the server (the key is not in the
-- database), so this migration cannot seal the rows stored before it: the keys.seal-stored-data
-- job does, tenant by tenant, finding them through this lookup (tenant ids only). The job role
-- reads the body column only to tell a sealed body (`sv1.…`) from one stored before.
GRANT SELECT ("body") ON "webhook_deliveries" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION webhook_deliveries_unsealed_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct d.tenant_id from webhook_deliveries d
  where d.body not like 'sv1.%'
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION webhook_deliveries_unsealed_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION webhook_deliveries_unsealed_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION webhook_deliveries_unsealed_tenants(integer) TO boomgate_app;
