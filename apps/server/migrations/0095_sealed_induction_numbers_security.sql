-- Issue 26: an induction assignment's driver ID number is sealed by the server (sv1.…) with its
-- keyed hash beside it (the gate's validity lookup goes by the hash). Assignments stored before are
-- sealed by keys.seal-stored-data, which finds their tenants through this lookup (tenant ids only;
-- the policy jobs_retention already lets the jobs role read the table).
GRANT SELECT ("driver_id_number", "driver_id_number_hash") ON "induction_assignments" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION induction_assignments_unsealed_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct a.tenant_id from induction_assignments a
  where a.driver_id_number_hash is null or a.driver_id_number not like 'sv1.%'
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION induction_assignments_unsealed_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION induction_assignments_unsealed_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION induction_assignments_unsealed_tenants(integer) TO boomgate_app;
