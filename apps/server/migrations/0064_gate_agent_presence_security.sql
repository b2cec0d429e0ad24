-- Gate agent presence (issue 17): the API process writes whether it holds the agent's connection,
-- and the offline scan (a job, boomgate_jobs) finds agents silent past the limit across tenants:
-- ids and last contact only, and only those whose outage has no device_offline alert yet.
GRANT UPDATE ("connected") ON "gate_agents" TO boomgate_app;--> statement-breakpoint
CREATE POLICY "jobs_barriers" ON "gate_agents" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "gate_id", "last_seen_at") ON "gate_agents" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION barrier_offline_agents(p_before timestamptz, p_limit integer)
RETURNS TABLE (tenant_id uuid, gate_id uuid, last_seen_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select g.tenant_id, g.gate_id, g.last_seen_at from gate_agents g
  where g.last_seen_at is not null
    and g.last_seen_at <= p_before
    and g.last_seen_at > p_before - interval '1 day'
    and not exists (
      select 1 from alerts a
      where a.tenant_id = g.tenant_id
        and a.dedupe_key = 'device_offline:gate:' || g.gate_id::text || ':' ||
          (extract(epoch from g.last_seen_at) * 1000)::bigint::text
    )
  order by g.last_seen_at
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION barrier_offline_agents(timestamptz, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION barrier_offline_agents(timestamptz, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION barrier_offline_agents(timestamptz, integer) TO boomgate_app;
