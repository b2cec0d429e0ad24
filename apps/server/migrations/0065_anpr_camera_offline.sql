-- Issue 22: a number-plate camera silent too long raises device_offline. The offline scan runs
-- without a tenant, so it reads silent cameras through a SECURITY DEFINER function owned by the
-- jobs role, which may read only the columns it needs.
CREATE POLICY "jobs_anpr_offline" ON "anpr_cameras" FOR SELECT TO boomgate_jobs USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "name", "last_seen_at") ON "anpr_cameras" TO boomgate_jobs;--> statement-breakpoint
CREATE FUNCTION anpr_offline_cameras(p_before timestamptz, p_limit integer)
RETURNS TABLE (tenant_id uuid, camera_id uuid, name text, last_seen_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select c.tenant_id, c.id, c.name, c.last_seen_at from anpr_cameras c
  where c.last_seen_at is not null
    and c.last_seen_at <= p_before
    and c.last_seen_at > p_before - interval '1 day'
    and not exists (
      select 1 from alerts a
      where a.tenant_id = c.tenant_id
        and a.dedupe_key = 'device_offline:camera:' || c.id::text || ':' ||
          (extract(epoch from c.last_seen_at) * 1000)::bigint::text
    )
  order by c.last_seen_at
  limit least(greatest(p_limit, 0), 1000)
$$;--> statement-breakpoint
ALTER FUNCTION anpr_offline_cameras(timestamptz, integer) OWNER TO boomgate_jobs;--> statement-breakpoint
REVOKE ALL ON FUNCTION anpr_offline_cameras(timestamptz, integer) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION anpr_offline_cameras(timestamptz, integer) TO boomgate_app;
