-- Alerts, second part (issue 22): the overstay scan's cross-tenant lookup, and erasure of alert
-- messages on a data subject's request (POPIA s24).
-- The overstay job: which tenants have an open visit past its site's limit and no overstay alert
-- for it yet (tenant ids only; the visits module lists the visits inside each tenant). A stay that
-- passed its limit more than a day ago is not looked at (no flood when the feature arrives).
CREATE POLICY "jobs_alerts" ON "visits" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "site_id", "entered_at", "exited_at") ON "visits" TO boomgate_jobs;--> statement-breakpoint
CREATE POLICY "jobs_alerts" ON "sites" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "overstay_minutes") ON "sites" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION alerts_due_overstay_tenants(p_now timestamptz, p_limit integer)
RETURNS TABLE (tenant_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select distinct v.tenant_id from visits v
  join sites s on s.tenant_id = v.tenant_id and s.id = v.site_id
  where v.exited_at is null
    and v.entered_at <= p_now - make_interval(mins => s.overstay_minutes)
    and v.entered_at > p_now - make_interval(mins => s.overstay_minutes) - interval '1 day'
    and not exists (
      select 1 from alerts a
      where a.tenant_id = v.tenant_id and a.dedupe_key = 'overstay:' || v.id::text
    )
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION alerts_due_overstay_tenants(timestamptz, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION alerts_due_overstay_tenants(timestamptz, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION alerts_due_overstay_tenants(timestamptz, integer) TO boomgate_app;--> statement-breakpoint
-- Erasure replaces an alert's message with one naming no person (alerts.personal-data.ts).
GRANT UPDATE ("message") ON "alerts" TO boomgate_app;
