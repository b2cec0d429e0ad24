-- Alerts (issue 22): row-level security like every tenant table (0001), the API role's privileges,
-- and the two cross-tenant lookups of the alert jobs (ids and what the message needs, no more).
ALTER TABLE "alerts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "alerts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "alerts" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "alert_settings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "alert_settings" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "alert_settings" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "alert_push_subscriptions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "alert_push_subscriptions" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "alert_push_subscriptions" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- Alerts are never deleted by the API; only acknowledgement and the repeat bookkeeping change.
GRANT SELECT, INSERT ON "alerts" TO boomgate_app;--> statement-breakpoint
GRANT UPDATE ("state", "acknowledged_at", "acknowledged_by", "acknowledged_by_name", "last_notified_at", "notifications") ON "alerts" TO boomgate_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON "alert_settings" TO boomgate_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "alert_push_subscriptions" TO boomgate_app;--> statement-breakpoint
-- The repeat job: open critical alerts whose tenant's repeat interval ran out.
CREATE POLICY "jobs_alerts" ON "alerts" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "state", "severity", "last_notified_at", "dedupe_key") ON "alerts" TO boomgate_jobs;--> statement-breakpoint
CREATE POLICY "jobs_alerts" ON "alert_settings" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "settings") ON "alert_settings" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION alerts_due_repeat(p_now timestamptz, p_limit integer)
RETURNS TABLE (tenant_id uuid, alert_id uuid, last_notified_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select a.tenant_id, a.id, a.last_notified_at from alerts a
  left join alert_settings s on s.tenant_id = a.tenant_id
  where a.state = 'open' and a.severity = 'critical'
    and a.last_notified_at <= p_now - make_interval(mins =>
      coalesce((s.settings->>'repeatEveryMinutes')::int, 30))
  order by a.last_notified_at
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION alerts_due_repeat(timestamptz, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION alerts_due_repeat(timestamptz, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION alerts_due_repeat(timestamptz, integer) TO boomgate_app;--> statement-breakpoint
-- feed_unprocessed: incoming entries still pending past the tenant's limit, each looked at for one
-- day after it became due (so old backlogs do not flood the bell when the feature arrives), and
-- only those without their alert yet. The partial index keeps the scan to pending entries.
CREATE INDEX "incoming_requests_pending_received_idx" ON "incoming_requests" ("received_at") WHERE "completed_at" IS NULL;--> statement-breakpoint
CREATE POLICY "jobs_alerts" ON "incoming_requests" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "plate_number", "received_at", "completed_at") ON "incoming_requests" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION alerts_due_feed_unprocessed(p_now timestamptz, p_limit integer)
RETURNS TABLE (tenant_id uuid, incoming_request_id uuid, plate_number text, received_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select r.tenant_id, r.id, r.plate_number, r.received_at from incoming_requests r
  left join alert_settings s on s.tenant_id = r.tenant_id
  where r.completed_at is null
    and r.received_at <= p_now - interval '1 minute'
    and r.received_at > p_now - interval '8 days'
    and r.received_at <= p_now - make_interval(mins =>
      coalesce((s.settings->>'feedUnprocessedMinutes')::int, 30))
    and r.received_at > p_now - make_interval(mins =>
      coalesce((s.settings->>'feedUnprocessedMinutes')::int, 30)) - interval '1 day'
    and not exists (
      select 1 from alerts a
      where a.tenant_id = r.tenant_id and a.dedupe_key = 'feed_unprocessed:' || r.id::text
    )
  order by r.received_at
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION alerts_due_feed_unprocessed(timestamptz, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION alerts_due_feed_unprocessed(timestamptz, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION alerts_due_feed_unprocessed(timestamptz, integer) TO boomgate_app;
