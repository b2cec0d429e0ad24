-- The biometric purge looks across tenants for approvals whose retention has ended; like the
-- webhook sweep it sees only which tenant and row are due (boomgate_jobs), then purges each inside
-- that tenant's transaction.
CREATE POLICY "jobs_biometric_purge" ON "approved_vehicles" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "biometrics_purge_after") ON "approved_vehicles" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION approved_vehicles_due_biometric_purge(p_now timestamptz, p_limit integer)
RETURNS TABLE (tenant_id uuid, vehicle_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select v.tenant_id, v.id from approved_vehicles v
  where v.biometrics_purge_after is not null and v.biometrics_purge_after <= p_now
  order by v.biometrics_purge_after
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION approved_vehicles_due_biometric_purge(timestamptz, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION approved_vehicles_due_biometric_purge(timestamptz, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION approved_vehicles_due_biometric_purge(timestamptz, integer) TO boomgate_app;
