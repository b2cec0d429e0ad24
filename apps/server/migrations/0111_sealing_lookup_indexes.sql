-- Issue 26g: at every worker start keys.seal-stored-data asks each *_unsealed_tenants /
-- *_unmasked_warning_tenants lookup for the tenants with rows still to seal or mask. On sealed data
-- the answer is empty, but nine of the lookups found that out by reading the whole table (entry
-- logs' and the feed's warnings, captures' readings, callback bodies, visits, drivers, the
-- watchlist, inductions, corrections): a second or more at 1M rows, holding a connection.
-- Each now has a partial index on tenant_id whose predicate is exactly the lookup's condition,
-- as entry_logs_unsealed_idx (0092) and audit_events_unsealed_idx (0099) already had: the planner
-- answers from the index, empty once the job has run, in a fraction of a millisecond whatever
-- the table's size. Results are unchanged: the lookups keep their conditions, word for word.
-- Conditions that need a subquery over jsonb (not allowed in an index predicate) move into
-- IMMUTABLE functions called the same way by the lookup and the index; their bodies name only
-- pg_catalog's functions and operators (always searched first), so they also resolve under the
-- search_path = pg_catalog, pg_temp that VACUUM, ANALYZE and REINDEX use since PostgreSQL 17 (0104).
-- The indexes are built inside the migration (CREATE INDEX CONCURRENTLY cannot run in a
-- transaction): one pass over each table, holding off writes to it meanwhile.

-- A watchlist hit's warning still quoting the number in full (UNMASKED_WATCHLIST_MESSAGE,
-- watchlist-screening.ts): entries (0098) and the incoming feed (0103).
CREATE FUNCTION public.warnings_unmasked(warnings jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select jsonb_typeof(warnings) = 'array' and exists (
    select 1 from jsonb_array_elements(warnings) w
    where w ->> 'message' ~ '^Driver ID number ([^*].*?) is on the watchlist \(')
$$;--> statement-breakpoint
-- A capture's reading with an ID or passport number still plain (0102). False for a null reading.
CREATE FUNCTION public.capture_reading_unsealed(reading jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select reading is not null and exists (
    select 1 from jsonb_each(case when jsonb_typeof(reading -> 'fields') = 'object'
                                  then reading -> 'fields' else '{}'::jsonb end) f
    where f.key in ('identityNumber', 'idNumber', 'driverIdNumber', 'passportNumber',
                    'driverPassportNumber', 'personalNumber', 'mrzLines')
      and jsonb_typeof(f.value -> 'value') not in ('null')
      and not (jsonb_typeof(f.value -> 'value') = 'string' and f.value ->> 'value' like 'sv1.%'))
$$;--> statement-breakpoint
CREATE INDEX "entry_logs_unmasked_warnings_idx" ON "entry_logs" USING btree ("tenant_id")
  WHERE public.warnings_unmasked(warnings);--> statement-breakpoint
CREATE INDEX "incoming_requests_unmasked_warnings_idx" ON "incoming_requests" USING btree ("tenant_id")
  WHERE public.warnings_unmasked(warnings);--> statement-breakpoint
CREATE INDEX "captures_unsealed_idx" ON "captures" USING btree ("tenant_id")
  WHERE public.capture_reading_unsealed(reading);--> statement-breakpoint
CREATE OR REPLACE FUNCTION entry_logs_unmasked_warning_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct e.tenant_id from entry_logs e
  where public.warnings_unmasked(e.warnings)
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION incoming_requests_unmasked_warning_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct r.tenant_id from incoming_requests r
  where public.warnings_unmasked(r.warnings)
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION captures_unsealed_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct c.tenant_id from captures c
  where public.capture_reading_unsealed(c.reading)
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
-- The other lookups' conditions are plain column tests: each index repeats its lookup's condition
-- (0077, 0078, 0087, 0094, 0095, 0101) as written there.
CREATE INDEX "drivers_unsealed_idx" ON "drivers" USING btree ("tenant_id")
  WHERE id_number_hash is null;--> statement-breakpoint
CREATE INDEX "watchlist_entries_unsealed_idx" ON "watchlist_entries" USING btree ("tenant_id")
  WHERE kind = 'idNumber' and value not like 'sv1.%';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_unsealed_idx" ON "webhook_deliveries" USING btree ("tenant_id")
  WHERE body not like 'sv1.%';--> statement-breakpoint
CREATE INDEX "visits_unsealed_idx" ON "visits" USING btree ("tenant_id")
  WHERE person_id_number is not null
    and (person_id_number_hash is null or person_id_number not like 'sv1.%');--> statement-breakpoint
CREATE INDEX "induction_assignments_unsealed_idx" ON "induction_assignments" USING btree ("tenant_id")
  WHERE driver_id_number_hash is null or driver_id_number not like 'sv1.%';--> statement-breakpoint
CREATE INDEX "reading_corrections_unsealed_idx" ON "reading_corrections" USING btree ("tenant_id")
  WHERE field in ('identityNumber', 'idNumber', 'driverIdNumber', 'passportNumber',
                  'driverPassportNumber', 'personalNumber', 'mrzLines')
    and (typed_value not like 'sv1.%' or typed_value_hash is null
         or read_value ->> 'value' not like 'sv1.%');
