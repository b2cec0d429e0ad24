-- Issue 23: the reports' hourly counts, kept by statement-level triggers on entry_logs and visits
-- (one grouped upsert per statement, in the writer's transaction, as 0015 and 0047 do): a report
-- sums hour rows and never counts a million entries. Hours are cut in UTC (date_trunc's third
-- argument), so the session's TimeZone never shifts a bucket and a whole-hour site timezone (SAST)
-- cuts its days from them exactly. As the invoker: under the app role row-level security applies
-- to the counts like everywhere else. Entries without a site count under the nil uuid.
ALTER TABLE "report_hourly_entries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_hourly_entries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_hourly_refusals" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_hourly_refusals" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_hourly_visits" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_hourly_visits" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "report_hourly_entries" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- The triggers write as the API role when it logs an entry or a visit (an upsert needs INSERT and UPDATE).
GRANT SELECT, INSERT, UPDATE ON "report_hourly_entries" TO boomgate_app;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "report_hourly_refusals" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- The triggers write as the API role when it logs an entry or a visit (an upsert needs INSERT and UPDATE).
GRANT SELECT, INSERT, UPDATE ON "report_hourly_refusals" TO boomgate_app;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "report_hourly_visits" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- The triggers write as the API role when it logs an entry or a visit (an upsert needs INSERT and UPDATE).
GRANT SELECT, INSERT, UPDATE ON "report_hourly_visits" TO boomgate_app;--> statement-breakpoint
CREATE FUNCTION report_hourly_entries_insert() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  WITH d AS (SELECT *, 1 AS sign FROM new_rows)
  INSERT INTO report_hourly_entries AS c
    (tenant_id, site_id, hour, gate_id, total, approved, face_verified, granted, corrected)
  SELECT tenant_id, coalesce(site_id, '00000000-0000-0000-0000-000000000000'::uuid), date_trunc('hour', "timestamp", 'UTC'),
         coalesce(gate_id, '00000000-0000-0000-0000-000000000000'::uuid),
         sum(sign), coalesce(sum(sign) FILTER (WHERE vehicle_approved), 0),
         coalesce(sum(sign) FILTER (WHERE face_verified), 0),
         coalesce(sum(sign) FILTER (WHERE entry_granted), 0),
         coalesce(sum(sign) FILTER (WHERE extracted_plate IS NOT NULL AND extracted_plate <> plate_number), 0)
  FROM d GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (tenant_id, site_id, hour, gate_id) DO UPDATE SET total = c.total + excluded.total,
    approved = c.approved + excluded.approved, face_verified = c.face_verified + excluded.face_verified,
    granted = c.granted + excluded.granted, corrected = c.corrected + excluded.corrected;
  WITH d AS (SELECT *, 1 AS sign FROM new_rows)
  INSERT INTO report_hourly_refusals AS c (tenant_id, site_id, hour, reason, refused)
  SELECT tenant_id, coalesce(site_id, '00000000-0000-0000-0000-000000000000'::uuid), date_trunc('hour', "timestamp", 'UTC'),
         coalesce(refusal_reason, ''), sum(sign)
  FROM d WHERE NOT entry_granted GROUP BY 1, 2, 3, 4 HAVING sum(sign) <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT (tenant_id, site_id, hour, reason) DO UPDATE SET refused = c.refused + excluded.refused;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION report_hourly_entries_update() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  WITH d AS (SELECT *, -1 AS sign FROM old_rows UNION ALL SELECT *, 1 AS sign FROM new_rows)
  INSERT INTO report_hourly_entries AS c
    (tenant_id, site_id, hour, gate_id, total, approved, face_verified, granted, corrected)
  SELECT tenant_id, coalesce(site_id, '00000000-0000-0000-0000-000000000000'::uuid), date_trunc('hour', "timestamp", 'UTC'),
         coalesce(gate_id, '00000000-0000-0000-0000-000000000000'::uuid),
         sum(sign), coalesce(sum(sign) FILTER (WHERE vehicle_approved), 0),
         coalesce(sum(sign) FILTER (WHERE face_verified), 0),
         coalesce(sum(sign) FILTER (WHERE entry_granted), 0),
         coalesce(sum(sign) FILTER (WHERE extracted_plate IS NOT NULL AND extracted_plate <> plate_number), 0)
  FROM d GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (tenant_id, site_id, hour, gate_id) DO UPDATE SET total = c.total + excluded.total,
    approved = c.approved + excluded.approved, face_verified = c.face_verified + excluded.face_verified,
    granted = c.granted + excluded.granted, corrected = c.corrected + excluded.corrected;
  WITH d AS (SELECT *, -1 AS sign FROM old_rows UNION ALL SELECT *, 1 AS sign FROM new_rows)
  INSERT INTO report_hourly_refusals AS c (tenant_id, site_id, hour, reason, refused)
  SELECT tenant_id, coalesce(site_id, '00000000-0000-0000-0000-000000000000'::uuid), date_trunc('hour', "timestamp", 'UTC'),
         coalesce(refusal_reason, ''), sum(sign)
  FROM d WHERE NOT entry_granted GROUP BY 1, 2, 3, 4 HAVING sum(sign) <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT (tenant_id, site_id, hour, reason) DO UPDATE SET refused = c.refused + excluded.refused;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION report_hourly_entries_delete() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  WITH d AS (SELECT *, -1 AS sign FROM old_rows)
  INSERT INTO report_hourly_entries AS c
    (tenant_id, site_id, hour, gate_id, total, approved, face_verified, granted, corrected)
  SELECT tenant_id, coalesce(site_id, '00000000-0000-0000-0000-000000000000'::uuid), date_trunc('hour', "timestamp", 'UTC'),
         coalesce(gate_id, '00000000-0000-0000-0000-000000000000'::uuid),
         sum(sign), coalesce(sum(sign) FILTER (WHERE vehicle_approved), 0),
         coalesce(sum(sign) FILTER (WHERE face_verified), 0),
         coalesce(sum(sign) FILTER (WHERE entry_granted), 0),
         coalesce(sum(sign) FILTER (WHERE extracted_plate IS NOT NULL AND extracted_plate <> plate_number), 0)
  FROM d GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (tenant_id, site_id, hour, gate_id) DO UPDATE SET total = c.total + excluded.total,
    approved = c.approved + excluded.approved, face_verified = c.face_verified + excluded.face_verified,
    granted = c.granted + excluded.granted, corrected = c.corrected + excluded.corrected;
  WITH d AS (SELECT *, -1 AS sign FROM old_rows)
  INSERT INTO report_hourly_refusals AS c (tenant_id, site_id, hour, reason, refused)
  SELECT tenant_id, coalesce(site_id, '00000000-0000-0000-0000-000000000000'::uuid), date_trunc('hour', "timestamp", 'UTC'),
         coalesce(refusal_reason, ''), sum(sign)
  FROM d WHERE NOT entry_granted GROUP BY 1, 2, 3, 4 HAVING sum(sign) <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT (tenant_id, site_id, hour, reason) DO UPDATE SET refused = c.refused + excluded.refused;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION report_hourly_visits_insert() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  WITH d AS (SELECT *, 1 AS sign FROM new_rows),
  moves AS (
    SELECT tenant_id, site_id, date_trunc('hour', entered_at, 'UTC') AS hour, sign AS arrivals, 0 AS departures FROM d
    UNION ALL
    SELECT tenant_id, site_id, date_trunc('hour', exited_at, 'UTC'), 0, sign FROM d WHERE exited_at IS NOT NULL)
  INSERT INTO report_hourly_visits AS c (tenant_id, site_id, hour, arrivals, departures)
  SELECT tenant_id, site_id, hour, sum(arrivals), sum(departures)
  FROM moves GROUP BY 1, 2, 3 HAVING sum(arrivals) <> 0 OR sum(departures) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (tenant_id, site_id, hour) DO UPDATE SET arrivals = c.arrivals + excluded.arrivals,
    departures = c.departures + excluded.departures;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION report_hourly_visits_update() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  WITH d AS (SELECT *, -1 AS sign FROM old_rows UNION ALL SELECT *, 1 AS sign FROM new_rows),
  moves AS (
    SELECT tenant_id, site_id, date_trunc('hour', entered_at, 'UTC') AS hour, sign AS arrivals, 0 AS departures FROM d
    UNION ALL
    SELECT tenant_id, site_id, date_trunc('hour', exited_at, 'UTC'), 0, sign FROM d WHERE exited_at IS NOT NULL)
  INSERT INTO report_hourly_visits AS c (tenant_id, site_id, hour, arrivals, departures)
  SELECT tenant_id, site_id, hour, sum(arrivals), sum(departures)
  FROM moves GROUP BY 1, 2, 3 HAVING sum(arrivals) <> 0 OR sum(departures) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (tenant_id, site_id, hour) DO UPDATE SET arrivals = c.arrivals + excluded.arrivals,
    departures = c.departures + excluded.departures;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION report_hourly_visits_delete() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  WITH d AS (SELECT *, -1 AS sign FROM old_rows),
  moves AS (
    SELECT tenant_id, site_id, date_trunc('hour', entered_at, 'UTC') AS hour, sign AS arrivals, 0 AS departures FROM d
    UNION ALL
    SELECT tenant_id, site_id, date_trunc('hour', exited_at, 'UTC'), 0, sign FROM d WHERE exited_at IS NOT NULL)
  INSERT INTO report_hourly_visits AS c (tenant_id, site_id, hour, arrivals, departures)
  SELECT tenant_id, site_id, hour, sum(arrivals), sum(departures)
  FROM moves GROUP BY 1, 2, 3 HAVING sum(arrivals) <> 0 OR sum(departures) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (tenant_id, site_id, hour) DO UPDATE SET arrivals = c.arrivals + excluded.arrivals,
    departures = c.departures + excluded.departures;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION report_hourly_entries_clear() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  TRUNCATE report_hourly_entries, report_hourly_refusals;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION report_hourly_visits_clear() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  TRUNCATE report_hourly_visits;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER entry_logs_report_inserts AFTER INSERT ON "entry_logs"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_hourly_entries_insert();--> statement-breakpoint
CREATE TRIGGER entry_logs_report_updates AFTER UPDATE ON "entry_logs"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_hourly_entries_update();--> statement-breakpoint
CREATE TRIGGER entry_logs_report_deletes AFTER DELETE ON "entry_logs"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_hourly_entries_delete();--> statement-breakpoint
CREATE TRIGGER entry_logs_report_truncates AFTER TRUNCATE ON "entry_logs"
  FOR EACH STATEMENT EXECUTE FUNCTION report_hourly_entries_clear();--> statement-breakpoint
CREATE TRIGGER visits_report_inserts AFTER INSERT ON "visits"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_hourly_visits_insert();--> statement-breakpoint
CREATE TRIGGER visits_report_updates AFTER UPDATE ON "visits"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_hourly_visits_update();--> statement-breakpoint
CREATE TRIGGER visits_report_deletes AFTER DELETE ON "visits"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_hourly_visits_delete();--> statement-breakpoint
CREATE TRIGGER visits_report_truncates AFTER TRUNCATE ON "visits"
  FOR EACH STATEMENT EXECUTE FUNCTION report_hourly_visits_clear();--> statement-breakpoint
-- Existing entries and visits, counted once. The triggers above already count any writer that
-- commits after this migration; NO FORCE lets an owner that is not a superuser see every tenant
-- for these statements.
ALTER TABLE "entry_logs" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "visits" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_hourly_entries" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_hourly_refusals" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_hourly_visits" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
INSERT INTO report_hourly_entries (tenant_id, site_id, hour, gate_id, total, approved, face_verified, granted, corrected)
SELECT tenant_id, coalesce(site_id, '00000000-0000-0000-0000-000000000000'::uuid), date_trunc('hour', "timestamp", 'UTC'), coalesce(gate_id, '00000000-0000-0000-0000-000000000000'::uuid),
       count(*), count(*) FILTER (WHERE vehicle_approved), count(*) FILTER (WHERE face_verified),
       count(*) FILTER (WHERE entry_granted),
       count(*) FILTER (WHERE extracted_plate IS NOT NULL AND extracted_plate <> plate_number)
FROM entry_logs GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO report_hourly_refusals (tenant_id, site_id, hour, reason, refused)
SELECT tenant_id, coalesce(site_id, '00000000-0000-0000-0000-000000000000'::uuid), date_trunc('hour', "timestamp", 'UTC'),
       coalesce(refusal_reason, ''), count(*)
FROM entry_logs WHERE NOT entry_granted GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO report_hourly_visits (tenant_id, site_id, hour, arrivals, departures)
SELECT tenant_id, site_id, hour, sum(arrivals), sum(departures) FROM (
  SELECT tenant_id, site_id, date_trunc('hour', entered_at, 'UTC') AS hour, 1 AS arrivals, 0 AS departures FROM visits
  UNION ALL
  SELECT tenant_id, site_id, date_trunc('hour', exited_at, 'UTC'), 0, 1 FROM visits WHERE exited_at IS NOT NULL
) moves GROUP BY 1, 2, 3;--> statement-breakpoint
ALTER TABLE "entry_logs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "visits" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_hourly_entries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_hourly_refusals" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_hourly_visits" FORCE ROW LEVEL SECURITY;
