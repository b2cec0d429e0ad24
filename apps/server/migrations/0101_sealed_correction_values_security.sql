-- Issue 26: a correction of an ID or passport number (identityNumber, idNumber, passportNumber…)
-- keeps the typed and the read number sealed by the server (sv1.…, the key is not in the
-- database), with the typed number's keyed hash beside it. The app writes the hash; the rows
-- stored before are sealed by keys.seal-stored-data (and re-sealed by keys.reseal on a rotation),
-- which finds their tenants through this lookup (tenant ids only). Corrections had no UPDATE:
-- the app may now update exactly these three columns (it could already delete the row).
GRANT UPDATE ("typed_value", "typed_value_hash", "read_value") ON "reading_corrections" TO boomgate_app;--> statement-breakpoint
CREATE POLICY "jobs_sealing" ON "reading_corrections" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "field", "typed_value", "typed_value_hash", "read_value")
  ON "reading_corrections" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION reading_corrections_unsealed_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct c.tenant_id from reading_corrections c
  where c.field in ('identityNumber', 'idNumber', 'driverIdNumber', 'passportNumber',
                    'driverPassportNumber', 'personalNumber', 'mrzLines')
    and (c.typed_value not like 'sv1.%' or c.typed_value_hash is null
         or c.read_value ->> 'value' not like 'sv1.%')
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION reading_corrections_unsealed_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION reading_corrections_unsealed_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION reading_corrections_unsealed_tenants(integer) TO boomgate_app;
