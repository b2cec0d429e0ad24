-- A TRUNCATE of a counted table empties its counters. The clear functions ran DELETE, which row-level
-- security limits to the current tenant's rows: for an owner that is not a superuser (FORCE RLS, no
-- tenant set) it deleted nothing and left stale totals. TRUNCATE is not subject to row-level security,
-- and whoever may truncate the counted table is its owner, who owns the counters too.
CREATE OR REPLACE FUNCTION entry_log_daily_counts_clear() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  TRUNCATE entry_log_daily_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION truck_list_daily_counts_clear() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  TRUNCATE truck_list_daily_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION incoming_request_daily_counts_clear() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  TRUNCATE incoming_request_daily_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION approved_vehicle_expiry_counts_clear() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  TRUNCATE approved_vehicle_expiry_counts;
  RETURN NULL;
END $$;
