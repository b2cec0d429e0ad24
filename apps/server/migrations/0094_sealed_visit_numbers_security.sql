-- Issue 26: a visitor's ID or passport number is sealed by the server (sv1.…) with its keyed hash
-- beside it. The app writes the hash (UPDATE granted as for the number it belongs to: erasure
-- clears both); rows stored before are sealed by keys.seal-stored-data, which finds their tenants
-- through this lookup (tenant ids only; the policy jobs_alerts already lets the jobs role read).
GRANT UPDATE ("person_id_number_hash") ON "visits" TO boomgate_app;--> statement-breakpoint
GRANT SELECT ("person_id_number", "person_id_number_hash") ON "visits" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION visits_unsealed_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct v.tenant_id from visits v
  where v.person_id_number is not null
    and (v.person_id_number_hash is null or v.person_id_number not like 'sv1.%')
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION visits_unsealed_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION visits_unsealed_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION visits_unsealed_tenants(integer) TO boomgate_app;
