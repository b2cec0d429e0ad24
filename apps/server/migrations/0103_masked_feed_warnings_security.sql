-- Issue 26: a watchlist hit's warning kept on an incoming request (issue 21's `warnings`) quoted
-- the watched ID number in full before new warnings were masked at the source (maskIdentifier).
-- keys.seal-stored-data masks the ones stored before, as it does entries' (0098), in the app's
-- tenant transactions (boomgate_app may update incoming requests: 0005). It finds the tenants
-- with one still to mask through this lookup (tenant ids only); the pattern is
-- UNMASKED_WATCHLIST_MESSAGE (watchlist-screening.ts), read the same way by both engines. The
-- jobs role already reads incoming requests under its alerts policy (0039).
GRANT SELECT ("warnings") ON "incoming_requests" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION incoming_requests_unmasked_warning_tenants(p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct r.tenant_id from incoming_requests r
  where jsonb_typeof(r.warnings) = 'array' and exists (
    select 1 from jsonb_array_elements(r.warnings) w
    where w ->> 'message' ~ '^Driver ID number ([^*].*?) is on the watchlist \(')
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION incoming_requests_unmasked_warning_tenants(integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION incoming_requests_unmasked_warning_tenants(integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION incoming_requests_unmasked_warning_tenants(integer) TO boomgate_app;
