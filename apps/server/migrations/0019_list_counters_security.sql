-- Counters for the Truck List cards, the Incoming Feed cards and the dashboard's registered
-- vehicles (issues 5 and 9: p99 ≤ 50 ms with 150,000 camera reads, 30,000 incoming entries and
-- 20,000 approvals in one tenant). As for entry_log_daily_counts (0015): statement-level triggers,
-- one grouped upsert per statement, in the writer's transaction, so the counts are exactly the
-- committed rows; the functions run as the invoker, so row-level security applies to the counts.

-- Spec §2 "present": text left after trimming what JavaScript's String.prototype.trim trims
-- (the web and contracts use trim(); the cards and the rows' status must agree).
CREATE FUNCTION boomgate_has_text(value text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT btrim(coalesce(value, ''),
    E'\t\n\u000b\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff') <> ''
$$;--> statement-breakpoint

-- 1. Truck list: per site day (SAST, as platform/calendar.ts), all reads and those with a truck
--    (order) number.
CREATE FUNCTION truck_list_daily_counts_apply() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO truck_list_daily_counts AS c (tenant_id, day, total, with_truck_number)
    SELECT tenant_id, ("timestamp" AT TIME ZONE 'Africa/Johannesburg')::date,
           -count(*), -count(*) FILTER (WHERE boomgate_has_text(truck_number))
    FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, day) DO UPDATE SET total = c.total + excluded.total,
      with_truck_number = c.with_truck_number + excluded.with_truck_number;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO truck_list_daily_counts AS c (tenant_id, day, total, with_truck_number)
    SELECT tenant_id, ("timestamp" AT TIME ZONE 'Africa/Johannesburg')::date,
           count(*), count(*) FILTER (WHERE boomgate_has_text(truck_number))
    FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, day) DO UPDATE SET total = c.total + excluded.total,
      with_truck_number = c.with_truck_number + excluded.with_truck_number;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION truck_list_daily_counts_clear() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  DELETE FROM truck_list_daily_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER truck_list_entries_count_inserts AFTER INSERT ON "truck_list_entries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION truck_list_daily_counts_apply();--> statement-breakpoint
CREATE TRIGGER truck_list_entries_count_updates AFTER UPDATE ON "truck_list_entries"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION truck_list_daily_counts_apply();--> statement-breakpoint
CREATE TRIGGER truck_list_entries_count_deletes AFTER DELETE ON "truck_list_entries"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION truck_list_daily_counts_apply();--> statement-breakpoint
CREATE TRIGGER truck_list_entries_count_truncates AFTER TRUNCATE ON "truck_list_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION truck_list_daily_counts_clear();--> statement-breakpoint

-- 2. Incoming feed: per site day of the entry's timestamp, all entries and the processed ones
--    (driver name and driver ID number both present, spec §2).
CREATE FUNCTION incoming_request_daily_counts_apply() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO incoming_request_daily_counts AS c (tenant_id, day, total, complete)
    SELECT tenant_id, ("timestamp" AT TIME ZONE 'Africa/Johannesburg')::date, -count(*),
           -count(*) FILTER (WHERE boomgate_has_text(driver_name) AND boomgate_has_text(driver_id_number))
    FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, day) DO UPDATE SET total = c.total + excluded.total,
      complete = c.complete + excluded.complete;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO incoming_request_daily_counts AS c (tenant_id, day, total, complete)
    SELECT tenant_id, ("timestamp" AT TIME ZONE 'Africa/Johannesburg')::date, count(*),
           count(*) FILTER (WHERE boomgate_has_text(driver_name) AND boomgate_has_text(driver_id_number))
    FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, day) DO UPDATE SET total = c.total + excluded.total,
      complete = c.complete + excluded.complete;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION incoming_request_daily_counts_clear() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  DELETE FROM incoming_request_daily_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER incoming_requests_count_inserts AFTER INSERT ON "incoming_requests"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION incoming_request_daily_counts_apply();--> statement-breakpoint
CREATE TRIGGER incoming_requests_count_updates AFTER UPDATE ON "incoming_requests"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION incoming_request_daily_counts_apply();--> statement-breakpoint
CREATE TRIGGER incoming_requests_count_deletes AFTER DELETE ON "incoming_requests"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION incoming_request_daily_counts_apply();--> statement-breakpoint
CREATE TRIGGER incoming_requests_count_truncates AFTER TRUNCATE ON "incoming_requests"
  FOR EACH STATEMENT EXECUTE FUNCTION incoming_request_daily_counts_clear();--> statement-breakpoint

-- 3. Approved vehicles: active approvals per last approved day ('infinity' when open-ended).
--    An update only writes when it moves a vehicle between days or in or out of "active".
CREATE FUNCTION approved_vehicle_expiry_counts_apply() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO approved_vehicle_expiry_counts AS c (tenant_id, approved_until, active)
    SELECT tenant_id, coalesce(approved_until, 'infinity'::date), count(*)
    FROM new_rows WHERE is_active GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, approved_until) DO UPDATE SET active = c.active + excluded.active;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO approved_vehicle_expiry_counts AS c (tenant_id, approved_until, active)
    SELECT tenant_id, coalesce(approved_until, 'infinity'::date), -count(*)
    FROM old_rows WHERE is_active GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, approved_until) DO UPDATE SET active = c.active + excluded.active;
  ELSE
    INSERT INTO approved_vehicle_expiry_counts AS c (tenant_id, approved_until, active)
    SELECT tenant_id, approved_until, sum(delta)::int FROM (
      SELECT tenant_id, coalesce(approved_until, 'infinity'::date) AS approved_until, -1 AS delta
      FROM old_rows WHERE is_active
      UNION ALL
      SELECT tenant_id, coalesce(approved_until, 'infinity'::date), 1
      FROM new_rows WHERE is_active
    ) AS moved GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2
    ON CONFLICT (tenant_id, approved_until) DO UPDATE SET active = c.active + excluded.active;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION approved_vehicle_expiry_counts_clear() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  DELETE FROM approved_vehicle_expiry_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER approved_vehicles_count_inserts AFTER INSERT ON "approved_vehicles"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION approved_vehicle_expiry_counts_apply();--> statement-breakpoint
CREATE TRIGGER approved_vehicles_count_updates AFTER UPDATE ON "approved_vehicles"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION approved_vehicle_expiry_counts_apply();--> statement-breakpoint
CREATE TRIGGER approved_vehicles_count_deletes AFTER DELETE ON "approved_vehicles"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION approved_vehicle_expiry_counts_apply();--> statement-breakpoint
CREATE TRIGGER approved_vehicles_count_truncates AFTER TRUNCATE ON "approved_vehicles"
  FOR EACH STATEMENT EXECUTE FUNCTION approved_vehicle_expiry_counts_clear();--> statement-breakpoint

-- Existing rows, counted once. The table locks taken above keep writers out until this commits;
-- NO FORCE lets an owner that is not a superuser see every tenant for these statements.
ALTER TABLE "truck_list_entries" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
INSERT INTO truck_list_daily_counts (tenant_id, day, total, with_truck_number)
SELECT tenant_id, ("timestamp" AT TIME ZONE 'Africa/Johannesburg')::date,
       count(*), count(*) FILTER (WHERE boomgate_has_text(truck_number))
FROM truck_list_entries GROUP BY 1, 2;--> statement-breakpoint
ALTER TABLE "truck_list_entries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "incoming_requests" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
INSERT INTO incoming_request_daily_counts (tenant_id, day, total, complete)
SELECT tenant_id, ("timestamp" AT TIME ZONE 'Africa/Johannesburg')::date, count(*),
       count(*) FILTER (WHERE boomgate_has_text(driver_name) AND boomgate_has_text(driver_id_number))
FROM incoming_requests GROUP BY 1, 2;--> statement-breakpoint
ALTER TABLE "incoming_requests" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "approved_vehicles" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
INSERT INTO approved_vehicle_expiry_counts (tenant_id, approved_until, active)
SELECT tenant_id, coalesce(approved_until, 'infinity'::date), count(*)
FROM approved_vehicles WHERE is_active GROUP BY 1, 2;--> statement-breakpoint
ALTER TABLE "approved_vehicles" FORCE ROW LEVEL SECURITY;--> statement-breakpoint

-- The counters are tenant data like the rows they count.
ALTER TABLE "truck_list_daily_counts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "truck_list_daily_counts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "truck_list_daily_counts" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "incoming_request_daily_counts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "incoming_request_daily_counts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "incoming_request_daily_counts" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "approved_vehicle_expiry_counts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "approved_vehicle_expiry_counts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "approved_vehicle_expiry_counts" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- The triggers write as the API role when it records a read, an incoming entry or an approval.
GRANT SELECT, INSERT, UPDATE ON "truck_list_daily_counts" TO boomgate_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON "incoming_request_daily_counts" TO boomgate_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON "approved_vehicle_expiry_counts" TO boomgate_app;
