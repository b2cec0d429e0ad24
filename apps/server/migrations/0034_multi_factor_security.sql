-- SEC-26: second factors are tenant data like the users they belong to. The API may read and
-- change them; recovery codes are only marked used, never rewritten.
ALTER TABLE "mfa_totp" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "mfa_totp" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "mfa_totp" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "mfa_recovery_codes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "mfa_recovery_codes" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "mfa_recovery_codes" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "mfa_passkeys" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "mfa_passkeys" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "mfa_passkeys" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "mfa_totp", "mfa_passkeys" TO boomgate_app;--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON "mfa_recovery_codes" TO boomgate_app;--> statement-breakpoint
GRANT UPDATE ("used_at") ON "mfa_recovery_codes" TO boomgate_app;--> statement-breakpoint

-- The session's MFA stage travels with it: the access check on every request needs it. The
-- return type changes, so the function is replaced (same owner, grants and body otherwise).
DROP FUNCTION auth_resolve_session(text, timestamptz, interval, interval);--> statement-breakpoint
CREATE FUNCTION auth_resolve_session(p_token_hash text, p_now timestamptz, p_idle interval, p_touch_after interval)
RETURNS TABLE (
  tenant_id uuid, tenant_name text, user_id uuid, username text, full_name text, email text,
  role user_role, must_change_password boolean, session_created_at timestamptz, mfa_pending text
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
    SELECT t.id, t.name, u.id, u.username, u.full_name, u.email, u.role, u.must_change_password,
      s.created_at, s.mfa_pending
    FROM users u JOIN tenants t ON t.id = u.tenant_id
    WHERE u.tenant_id = s.tenant_id AND u.id = s.user_id AND u.is_active;
END
$$;--> statement-breakpoint
ALTER FUNCTION auth_resolve_session(text, timestamptz, interval, interval) OWNER TO boomgate_auth;--> statement-breakpoint
REVOKE ALL ON FUNCTION auth_resolve_session(text, timestamptz, interval, interval) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION auth_resolve_session(text, timestamptz, interval, interval) TO boomgate_app;
