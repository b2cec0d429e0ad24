ALTER TABLE "entry_logs" ALTER COLUMN "timestamp" SET DATA TYPE timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "entry_logs" ALTER COLUMN "timestamp" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "truck_list_entries" ALTER COLUMN "timestamp" SET DATA TYPE timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "truck_list_entries" ALTER COLUMN "timestamp" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "incoming_requests" ALTER COLUMN "timestamp" SET DATA TYPE timestamp (3) with time zone;--> statement-breakpoint
-- Rounding to milliseconds can move a row stamped in the last half-millisecond of a day into the
-- next day (the rewrite fires no triggers), so the per-day counters are counted again.
TRUNCATE entry_log_daily_counts, truck_list_daily_counts, incoming_request_daily_counts;--> statement-breakpoint
ALTER TABLE "entry_logs" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
INSERT INTO entry_log_daily_counts (tenant_id, day, total, approved, face_verified)
SELECT tenant_id, ("timestamp" AT TIME ZONE 'Africa/Johannesburg')::date,
       count(*), count(*) FILTER (WHERE vehicle_approved), count(*) FILTER (WHERE face_verified)
FROM entry_logs GROUP BY 1, 2;--> statement-breakpoint
ALTER TABLE "entry_logs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
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
ALTER TABLE "incoming_requests" FORCE ROW LEVEL SECURITY;
