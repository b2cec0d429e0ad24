-- The dashboard's entry counts, kept per tenant and site day (SAST, as platform/calendar.ts) by
-- statement-level triggers on entry_logs: one grouped upsert per INSERT/UPDATE/DELETE statement
-- (a bulk load pays once, not per row), in the writer's transaction, so the counts are exactly
-- the committed rows. The functions run as the invoker: under the app role, row-level security
-- applies to the counts like everywhere else.
CREATE FUNCTION entry_log_daily_counts_apply() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO entry_log_daily_counts AS c (tenant_id, day, total, approved, face_verified)
    SELECT tenant_id, ("timestamp" AT TIME ZONE 'Africa/Johannesburg')::date,
           -count(*), -count(*) FILTER (WHERE vehicle_approved), -count(*) FILTER (WHERE face_verified)
    FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, day) DO UPDATE SET total = c.total + excluded.total,
      approved = c.approved + excluded.approved, face_verified = c.face_verified + excluded.face_verified;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO entry_log_daily_counts AS c (tenant_id, day, total, approved, face_verified)
    SELECT tenant_id, ("timestamp" AT TIME ZONE 'Africa/Johannesburg')::date,
           count(*), count(*) FILTER (WHERE vehicle_approved), count(*) FILTER (WHERE face_verified)
    FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, day) DO UPDATE SET total = c.total + excluded.total,
      approved = c.approved + excluded.approved, face_verified = c.face_verified + excluded.face_verified;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION entry_log_daily_counts_clear() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  DELETE FROM entry_log_daily_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER entry_logs_count_inserts AFTER INSERT ON "entry_logs"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entry_log_daily_counts_apply();--> statement-breakpoint
CREATE TRIGGER entry_logs_count_updates AFTER UPDATE ON "entry_logs"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entry_log_daily_counts_apply();--> statement-breakpoint
CREATE TRIGGER entry_logs_count_deletes AFTER DELETE ON "entry_logs"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION entry_log_daily_counts_apply();--> statement-breakpoint
CREATE TRIGGER entry_logs_count_truncates AFTER TRUNCATE ON "entry_logs"
  FOR EACH STATEMENT EXECUTE FUNCTION entry_log_daily_counts_clear();--> statement-breakpoint
-- Existing entries, counted once. The table locks taken above keep writers out until this commits;
-- NO FORCE lets an owner that is not a superuser see every tenant for this one statement.
ALTER TABLE "entry_logs" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
INSERT INTO entry_log_daily_counts (tenant_id, day, total, approved, face_verified)
SELECT tenant_id, ("timestamp" AT TIME ZONE 'Africa/Johannesburg')::date,
       count(*), count(*) FILTER (WHERE vehicle_approved), count(*) FILTER (WHERE face_verified)
FROM entry_logs GROUP BY 1, 2;--> statement-breakpoint
ALTER TABLE "entry_logs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "entry_log_daily_counts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "entry_log_daily_counts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "entry_log_daily_counts" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- The triggers write as the API role when it logs an entry (an upsert needs INSERT and UPDATE).
GRANT SELECT, INSERT, UPDATE ON "entry_log_daily_counts" TO boomgate_app;
