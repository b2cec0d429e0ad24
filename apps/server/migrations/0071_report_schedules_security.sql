-- Issue 23: scheduled report e-mails. Each tenant sees and changes only its own schedule; the send
-- job finds which tenants are due through one SECURITY DEFINER lookup owned by the job role (as
-- 0054's overstay scan): tenant ids only, never the recipients.
ALTER TABLE "report_schedules" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "report_schedules" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "report_schedules" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "report_schedules" TO boomgate_app;--> statement-breakpoint
CREATE POLICY "jobs_reports" ON "report_schedules" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "next_send_at") ON "report_schedules" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION reports_due_schedules(p_now timestamptz, p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select s.tenant_id from report_schedules s
  where s.next_send_at <= p_now
  order by s.next_send_at
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION reports_due_schedules(timestamptz, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION reports_due_schedules(timestamptz, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION reports_due_schedules(timestamptz, integer) TO boomgate_app;
