-- Issue 26: the ID and passport numbers in a capture's reading (identityNumber, idNumber,
-- passportNumber, mrzLines…) are sealed by the server (sv1.…, the key is not in the database),
-- with their keyed hashes in number_hashes for the data subject's export and erasure (which
-- clears both). Readings stored before are sealed by keys.seal-stored-data (re-sealed by
-- keys.reseal on a rotation), which finds their tenants through this lookup (tenant ids only).
GRANT UPDATE ("number_hashes") ON "captures" TO boomgate_app;--> statement-breakpoint
GRANT SELECT ("reading") ON "captures" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION captures_unsealed_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct c.tenant_id from captures c
  where c.reading is not null and exists (
    select 1 from jsonb_each(case when jsonb_typeof(c.reading -> 'fields') = 'object'
                                  then c.reading -> 'fields' else '{}'::jsonb end) f
    where f.key in ('identityNumber', 'idNumber', 'driverIdNumber', 'passportNumber',
                    'driverPassportNumber', 'personalNumber', 'mrzLines')
      and jsonb_typeof(f.value -> 'value') not in ('null')
      and not (jsonb_typeof(f.value -> 'value') = 'string' and f.value ->> 'value' like 'sv1.%'))
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION captures_unsealed_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION captures_unsealed_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION captures_unsealed_tenants(integer) TO boomgate_app;
