-- Issue 19: the user's language travels with the session, so GET /api/auth/me answers it without
-- another query. The return type changes, so the function is replaced (same owner, grants and
-- body otherwise, as in 0034).
DROP FUNCTION auth_resolve_session(text, timestamptz, interval, interval);--> statement-breakpoint
CREATE FUNCTION auth_resolve_session(p_token_hash text, p_now timestamptz, p_idle interval, p_touch_after interval)
RETURNS TABLE (
  tenant_id uuid, tenant_name text, user_id uuid, username text, full_name text, email text,
  role user_role, must_change_password boolean, session_created_at timestamptz, mfa_pending text,
  language text
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
      s.created_at, s.mfa_pending, u.language
    FROM users u JOIN tenants t ON t.id = u.tenant_id
    WHERE u.tenant_id = s.tenant_id AND u.id = s.user_id AND u.is_active;
END
$$;--> statement-breakpoint
ALTER FUNCTION auth_resolve_session(text, timestamptz, interval, interval) OWNER TO boomgate_auth;--> statement-breakpoint
REVOKE ALL ON FUNCTION auth_resolve_session(text, timestamptz, interval, interval) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION auth_resolve_session(text, timestamptz, interval, interval) TO boomgate_app;
