-- Barrier agents (issue 17): row-level security like every tenant table, the token lookup an
-- agent authenticates through before any tenant is known, and the API role's privileges.
ALTER TABLE "gate_agents" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "gate_agents" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "gate_agents" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- Like anpr_find_camera: a SECURITY DEFINER function owned by boomgate_auth that returns only
-- which tenant and gate a token hash belongs to.
CREATE POLICY "auth_lookup" ON "gate_agents" FOR SELECT TO boomgate_auth USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "gate_id", "token_hash") ON "gate_agents" TO boomgate_auth;--> statement-breakpoint
CREATE FUNCTION barrier_find_agent(p_token_hash text)
RETURNS TABLE (tenant_id uuid, gate_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select a.tenant_id, a.gate_id from gate_agents a where a.token_hash = p_token_hash limit 1
$$;--> statement-breakpoint
ALTER FUNCTION barrier_find_agent(text) OWNER TO boomgate_auth;--> statement-breakpoint
REVOKE ALL ON FUNCTION barrier_find_agent(text) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION barrier_find_agent(text) TO boomgate_app;--> statement-breakpoint
-- A token is replaced, never edited in place otherwise; the agent's device and last contact are kept.
GRANT SELECT, INSERT ON "gate_agents" TO boomgate_app;--> statement-breakpoint
GRANT UPDATE ("token_hash", "created_at", "created_by", "device", "last_seen_at") ON "gate_agents" TO boomgate_app;
