-- Row-level security for face_comparisons (same policy as 0001/0003) and the API role's privileges:
-- a comparison is written once, then only marked as backing an entry or unlinked from its driver.
ALTER TABLE "face_comparisons" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "face_comparisons" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "face_comparisons" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT ON "face_comparisons" TO boomgate_app;--> statement-breakpoint
-- driver_id: a data-subject erasure unlinks the comparison from the driver (faces.personal-data.ts).
GRANT UPDATE ("used_by_entry_id", "driver_id") ON "face_comparisons" TO boomgate_app;--> statement-breakpoint
-- The dashboard's Approval Rate is granted ÷ total (issue 14: refused attempts are logged too), so
-- the daily counters also count entry_granted. Same function as 0015, one more column.
CREATE OR REPLACE FUNCTION entry_log_daily_counts_apply() RETURNS trigger
LANGUAGE plpgsql SECURITY INVOKER SET search_path = public, pg_temp AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO entry_log_daily_counts AS c (tenant_id, day, total, approved, face_verified, granted)
    SELECT tenant_id, ("timestamp" AT TIME ZONE 'Africa/Johannesburg')::date,
           -count(*), -count(*) FILTER (WHERE vehicle_approved), -count(*) FILTER (WHERE face_verified),
           -count(*) FILTER (WHERE entry_granted)
    FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, day) DO UPDATE SET total = c.total + excluded.total,
      approved = c.approved + excluded.approved, face_verified = c.face_verified + excluded.face_verified,
      granted = c.granted + excluded.granted;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO entry_log_daily_counts AS c (tenant_id, day, total, approved, face_verified, granted)
    SELECT tenant_id, ("timestamp" AT TIME ZONE 'Africa/Johannesburg')::date,
           count(*), count(*) FILTER (WHERE vehicle_approved), count(*) FILTER (WHERE face_verified),
           count(*) FILTER (WHERE entry_granted)
    FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (tenant_id, day) DO UPDATE SET total = c.total + excluded.total,
      approved = c.approved + excluded.approved, face_verified = c.face_verified + excluded.face_verified,
      granted = c.granted + excluded.granted;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Existing entries' granted counts, once (as 0015 counted the others). NO FORCE lets an owner that
-- is not a superuser see every tenant for this one statement.
ALTER TABLE "entry_logs" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "entry_log_daily_counts" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
UPDATE entry_log_daily_counts c SET granted = g.granted
FROM (SELECT tenant_id, ("timestamp" AT TIME ZONE 'Africa/Johannesburg')::date AS day,
             count(*) FILTER (WHERE entry_granted)::int AS granted
      FROM entry_logs GROUP BY 1, 2) g
WHERE c.tenant_id = g.tenant_id AND c.day = g.day;--> statement-breakpoint
ALTER TABLE "entry_log_daily_counts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "entry_logs" FORCE ROW LEVEL SECURITY;
