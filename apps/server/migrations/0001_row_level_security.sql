-- Tenant isolation is enforced by PostgreSQL, not by remembering a WHERE clause.
-- Roles boomgate_app (the login the API uses) and boomgate_auth (owner of the two sign-in
-- lookups) are created before migrations run (src/platform/database-bootstrap.ts).
-- The tenant is read with (select …) so the planner evaluates it once per query (InitPlan).

ALTER TABLE "tenants" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "tenants" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "tenants" FOR ALL
  USING ("id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint

ALTER TABLE "users" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "users" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "users" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint

ALTER TABLE "sessions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "sessions" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "sessions" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint

ALTER TABLE "audit_events" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "audit_events" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "audit_events" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint

-- Sign-in happens before a tenant is known. Two SECURITY DEFINER functions owned by the NOLOGIN
-- role boomgate_auth may look across tenants, and only for exactly what sign-in needs.
CREATE POLICY "auth_lookup" ON "users" FOR SELECT TO boomgate_auth USING (true);--> statement-breakpoint
CREATE POLICY "auth_lookup" ON "tenants" FOR SELECT TO boomgate_auth USING (true);--> statement-breakpoint
CREATE POLICY "auth_lookup" ON "sessions" FOR ALL TO boomgate_auth USING (true) WITH CHECK (true);--> statement-breakpoint
GRANT SELECT ON "users", "tenants" TO boomgate_auth;--> statement-breakpoint
GRANT SELECT, UPDATE, DELETE ON "sessions" TO boomgate_auth;--> statement-breakpoint

CREATE FUNCTION auth_find_login(p_username text)
RETURNS TABLE (tenant_id uuid, user_id uuid, password_hash text, is_active boolean)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select u.tenant_id, u.id, u.password_hash, u.is_active from users u where lower(u.username) = lower(p_username)
$$;--> statement-breakpoint

-- One round trip per request: validates idle and absolute expiry against the app's clock,
-- deletes an expired session, refreshes last_seen_at at most once per p_touch_after.
CREATE FUNCTION auth_resolve_session(p_token_hash text, p_now timestamptz, p_idle interval, p_touch_after interval)
RETURNS TABLE (
  tenant_id uuid, tenant_name text, user_id uuid, username text, full_name text, email text,
  role user_role, must_change_password boolean, session_created_at timestamptz
)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  s sessions%ROWTYPE;
BEGIN
  SELECT * INTO s FROM sessions WHERE sessions.token_hash = p_token_hash;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF p_now >= s.expires_at OR p_now >= s.last_seen_at + p_idle THEN
    DELETE FROM sessions WHERE sessions.tenant_id = s.tenant_id AND sessions.token_hash = s.token_hash;
    RETURN;
  END IF;
  IF p_now - s.last_seen_at > p_touch_after THEN
    UPDATE sessions SET last_seen_at = p_now
      WHERE sessions.tenant_id = s.tenant_id AND sessions.token_hash = s.token_hash;
  END IF;
  RETURN QUERY
    SELECT t.id, t.name, u.id, u.username, u.full_name, u.email, u.role, u.must_change_password, s.created_at
    FROM users u JOIN tenants t ON t.id = u.tenant_id
    WHERE u.tenant_id = s.tenant_id AND u.id = s.user_id AND u.is_active;
END
$$;--> statement-breakpoint

ALTER FUNCTION auth_find_login(text) OWNER TO boomgate_auth;--> statement-breakpoint
ALTER FUNCTION auth_resolve_session(text, timestamptz, interval, interval) OWNER TO boomgate_auth;--> statement-breakpoint
REVOKE ALL ON FUNCTION auth_find_login(text) FROM PUBLIC;--> statement-breakpoint
REVOKE ALL ON FUNCTION auth_resolve_session(text, timestamptz, interval, interval) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION auth_find_login(text) TO boomgate_app;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION auth_resolve_session(text, timestamptz, interval, interval) TO boomgate_app;--> statement-breakpoint

-- The API's privileges, table by table. audit_events is append-only for it.
GRANT USAGE ON SCHEMA public TO boomgate_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON "tenants" TO boomgate_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "users", "sessions", "auth_throttle" TO boomgate_app;--> statement-breakpoint
GRANT SELECT, INSERT ON "audit_events" TO boomgate_app;
