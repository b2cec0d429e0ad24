-- Issue 28 (ADR 0009): site nodes. Row-level security and grants of the new tables, the version
-- stamp of every master-data table a site decides from (SITE_SYNC_TABLES in
-- packages/contracts/src/site-sync.ts), its tombstones, and the safe horizon of a changes page.

ALTER TABLE "site_node_tokens" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "site_node_tokens" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "site_node_tokens" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "site_sync_signing_keys" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "site_sync_signing_keys" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "site_sync_signing_keys" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "sync_tombstones" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "sync_tombstones" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "sync_tombstones" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "site_sync_events" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "site_sync_events" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "site_sync_events" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- A token is created, revoked and touched by its syncs; never deleted (who had access, when).
GRANT SELECT, INSERT ON "site_node_tokens" TO boomgate_app;--> statement-breakpoint
GRANT UPDATE ("revoked_at", "last_sync_at", "last_down_sync_at", "last_up_sync_at") ON "site_node_tokens" TO boomgate_app;--> statement-breakpoint
GRANT SELECT, INSERT ON "site_sync_signing_keys" TO boomgate_app;--> statement-breakpoint
-- Tombstones are written by the delete trigger in the deleting transaction, read by the changes page.
GRANT SELECT, INSERT ON "sync_tombstones" TO boomgate_app;--> statement-breakpoint
-- Site facts are insert-only: central never rewrites what a site recorded.
GRANT SELECT, INSERT ON "site_sync_events" TO boomgate_app;--> statement-breakpoint
-- The token names the tenant before any tenant is known (the sync routes' authentication):
-- boomgate_auth may read exactly what the lookup needs, through this function only.
CREATE POLICY "auth_lookup" ON "site_node_tokens" FOR SELECT TO boomgate_auth USING (true);--> statement-breakpoint
GRANT SELECT ("tenant_id", "id", "site_id", "token_hash", "revoked_at") ON "site_node_tokens" TO boomgate_auth;--> statement-breakpoint
CREATE FUNCTION site_sync_find_token(p_token_hash text)
RETURNS TABLE (tenant_id uuid, token_id uuid, site_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  select t.tenant_id, t.id, t.site_id from site_node_tokens t
  where t.token_hash = p_token_hash and t.revoked_at is null limit 1
$$;--> statement-breakpoint
ALTER FUNCTION site_sync_find_token(text) OWNER TO boomgate_auth;--> statement-breakpoint
REVOKE ALL ON FUNCTION site_sync_find_token(text) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION site_sync_find_token(text) TO boomgate_app;--> statement-breakpoint

-- One sequence versions every change of every synced table of every tenant.
CREATE SEQUENCE "site_sync_version_seq" AS bigint;--> statement-breakpoint
GRANT USAGE, SELECT ON SEQUENCE "site_sync_version_seq" TO boomgate_app, boomgate_auth;--> statement-breakpoint

-- Versions are taken when a row is written but become visible when its transaction commits, so
-- version order is not commit order: a reader that moved past version 101 while 100 was still
-- uncommitted would never see 100. Each writing transaction therefore pins, before it takes its
-- first version, the sequence's value then (a lower bound of every version it will take) as a
-- shared transaction-level advisory lock (key 0x5359000000000000 + pin, released at commit or
-- rollback, and with a rolled-back savepoint; these functions have no SET clause, which would undo
-- the pin's set_config at their exit). site_sync_horizon() answers the lowest pin still held (or
-- the last version taken): every version up to it belongs to a finished transaction, so a page
-- never moves past a change that could still appear, and the horizon never goes back. No writer
-- ever waits (shared locks).
-- Pins the transaction once: every version it takes is above the pin (the sequence's last value
-- now, or below the first value of an unused sequence).
CREATE FUNCTION site_sync_pin() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  pin bigint;
BEGIN
  IF coalesce(current_setting('boomgate.site_sync_pin', true), '') = '' THEN
    SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END INTO pin
    FROM public.site_sync_version_seq;
    PERFORM pg_advisory_xact_lock_shared(6005831578075267072 + pin);
    PERFORM set_config('boomgate.site_sync_pin', pin::text, true);
  END IF;
END
$$;--> statement-breakpoint
CREATE FUNCTION site_sync_stamp() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public.site_sync_pin();
  NEW.sync_version := nextval('public.site_sync_version_seq');
  NEW.sync_changed_at := statement_timestamp();
  RETURN NEW;
END
$$;--> statement-breakpoint
-- 6005831578075267072 = 0x5359000000000000 ("SY"): the pins' lock keys sit in their own range.
CREATE FUNCTION site_sync_horizon() RETURNS bigint
LANGUAGE plpgsql VOLATILE SET search_path = public, pg_temp AS $$
DECLARE
  last_taken bigint;
  lowest_pin bigint;
BEGIN
  -- First the sequence, then the pins: a transaction pinning after this read pins at least it.
  SELECT CASE WHEN is_called THEN last_value ELSE 0 END INTO last_taken FROM public.site_sync_version_seq;
  SELECT min(((l.classid::bigint << 32) | l.objid::bigint) - 6005831578075267072) INTO lowest_pin
  FROM pg_locks l
  WHERE l.locktype = 'advisory' AND l.objsubid = 1
    AND l.classid::bigint BETWEEN 1398341632 AND 1398407167;
  RETURN greatest(0, least(last_taken, coalesce(lowest_pin, last_taken)));
END
$$;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION site_sync_horizon() TO boomgate_app;--> statement-breakpoint

-- A deleted synced row leaves a tombstone (its key as text; composite keys joined by ':').
CREATE FUNCTION site_sync_tombstone() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  row_json jsonb := to_jsonb(OLD);
  row_key text;
  tenant uuid;
BEGIN
  tenant := CASE WHEN TG_TABLE_NAME = 'tenants' THEN (row_json->>'id')::uuid
                 ELSE (row_json->>'tenant_id')::uuid END;
  row_key := CASE TG_TABLE_NAME
    WHEN 'user_sites' THEN (row_json->>'user_id') || ':' || (row_json->>'site_id')
    WHEN 'mfa_totp' THEN row_json->>'user_id'
    WHEN 'document_rule_settings' THEN row_json->>'tenant_id'
    WHEN 'override_pin_settings' THEN row_json->>'tenant_id'
    ELSE row_json->>'id' END;
  PERFORM public.site_sync_pin();
  INSERT INTO public.sync_tombstones (version, tenant_id, table_name, row_id, match_key, deleted_at)
  VALUES (nextval('public.site_sync_version_seq'), tenant, TG_TABLE_NAME, row_key,
          CASE WHEN TG_TABLE_NAME = 'approved_vehicles' THEN row_json->>'plate_number' END,
          statement_timestamp());
  RETURN OLD;
END
$$;--> statement-breakpoint
-- A user newly assigned to a site reaches its node with their factors, whatever their versions.
CREATE FUNCTION site_sync_user_assigned() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE public.users SET sync_version = 0 WHERE tenant_id = NEW.tenant_id AND id = NEW.user_id;
  UPDATE public.mfa_totp SET sync_version = 0 WHERE tenant_id = NEW.tenant_id AND user_id = NEW.user_id;
  UPDATE public.mfa_passkeys SET sync_version = 0 WHERE tenant_id = NEW.tenant_id AND user_id = NEW.user_id;
  RETURN NEW;
END
$$;--> statement-breakpoint

ALTER TABLE "tenants" ADD COLUMN "sync_version" bigint NOT NULL DEFAULT nextval('public.site_sync_version_seq');--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "sync_changed_at" timestamptz NOT NULL DEFAULT statement_timestamp();--> statement-breakpoint
ALTER TABLE "tenants" ALTER COLUMN "sync_changed_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "tenants" ALTER COLUMN "sync_version" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "tenants_sync_version_idx" ON "tenants" USING btree ("id", "sync_version");--> statement-breakpoint
CREATE TRIGGER "site_sync_stamp" BEFORE INSERT OR UPDATE ON "tenants" FOR EACH ROW EXECUTE FUNCTION site_sync_stamp();--> statement-breakpoint
CREATE TRIGGER "site_sync_tombstone" AFTER DELETE ON "tenants" FOR EACH ROW EXECUTE FUNCTION site_sync_tombstone();--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "sync_version" bigint NOT NULL DEFAULT nextval('public.site_sync_version_seq');--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "sync_changed_at" timestamptz NOT NULL DEFAULT statement_timestamp();--> statement-breakpoint
ALTER TABLE "sites" ALTER COLUMN "sync_changed_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "sites" ALTER COLUMN "sync_version" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "sites_sync_version_idx" ON "sites" USING btree ("tenant_id", "sync_version");--> statement-breakpoint
CREATE TRIGGER "site_sync_stamp" BEFORE INSERT OR UPDATE ON "sites" FOR EACH ROW EXECUTE FUNCTION site_sync_stamp();--> statement-breakpoint
CREATE TRIGGER "site_sync_tombstone" AFTER DELETE ON "sites" FOR EACH ROW EXECUTE FUNCTION site_sync_tombstone();--> statement-breakpoint
ALTER TABLE "gates" ADD COLUMN "sync_version" bigint NOT NULL DEFAULT nextval('public.site_sync_version_seq');--> statement-breakpoint
ALTER TABLE "gates" ADD COLUMN "sync_changed_at" timestamptz NOT NULL DEFAULT statement_timestamp();--> statement-breakpoint
ALTER TABLE "gates" ALTER COLUMN "sync_changed_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "gates" ALTER COLUMN "sync_version" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "gates_sync_version_idx" ON "gates" USING btree ("tenant_id", "sync_version");--> statement-breakpoint
CREATE TRIGGER "site_sync_stamp" BEFORE INSERT OR UPDATE ON "gates" FOR EACH ROW EXECUTE FUNCTION site_sync_stamp();--> statement-breakpoint
CREATE TRIGGER "site_sync_tombstone" AFTER DELETE ON "gates" FOR EACH ROW EXECUTE FUNCTION site_sync_tombstone();--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sync_version" bigint NOT NULL DEFAULT nextval('public.site_sync_version_seq');--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sync_changed_at" timestamptz NOT NULL DEFAULT statement_timestamp();--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "sync_changed_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "sync_version" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "users_sync_version_idx" ON "users" USING btree ("tenant_id", "sync_version");--> statement-breakpoint
CREATE TRIGGER "site_sync_stamp" BEFORE INSERT OR UPDATE ON "users" FOR EACH ROW EXECUTE FUNCTION site_sync_stamp();--> statement-breakpoint
CREATE TRIGGER "site_sync_tombstone" AFTER DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION site_sync_tombstone();--> statement-breakpoint
ALTER TABLE "user_sites" ADD COLUMN "sync_version" bigint NOT NULL DEFAULT nextval('public.site_sync_version_seq');--> statement-breakpoint
ALTER TABLE "user_sites" ADD COLUMN "sync_changed_at" timestamptz NOT NULL DEFAULT statement_timestamp();--> statement-breakpoint
ALTER TABLE "user_sites" ALTER COLUMN "sync_changed_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "user_sites" ALTER COLUMN "sync_version" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "user_sites_sync_version_idx" ON "user_sites" USING btree ("tenant_id", "sync_version");--> statement-breakpoint
CREATE TRIGGER "site_sync_stamp" BEFORE INSERT OR UPDATE ON "user_sites" FOR EACH ROW EXECUTE FUNCTION site_sync_stamp();--> statement-breakpoint
CREATE TRIGGER "site_sync_tombstone" AFTER DELETE ON "user_sites" FOR EACH ROW EXECUTE FUNCTION site_sync_tombstone();--> statement-breakpoint
ALTER TABLE "mfa_totp" ADD COLUMN "sync_version" bigint NOT NULL DEFAULT nextval('public.site_sync_version_seq');--> statement-breakpoint
ALTER TABLE "mfa_totp" ADD COLUMN "sync_changed_at" timestamptz NOT NULL DEFAULT statement_timestamp();--> statement-breakpoint
ALTER TABLE "mfa_totp" ALTER COLUMN "sync_changed_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "mfa_totp" ALTER COLUMN "sync_version" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "mfa_totp_sync_version_idx" ON "mfa_totp" USING btree ("tenant_id", "sync_version");--> statement-breakpoint
CREATE TRIGGER "site_sync_stamp" BEFORE INSERT OR UPDATE ON "mfa_totp" FOR EACH ROW EXECUTE FUNCTION site_sync_stamp();--> statement-breakpoint
CREATE TRIGGER "site_sync_tombstone" AFTER DELETE ON "mfa_totp" FOR EACH ROW EXECUTE FUNCTION site_sync_tombstone();--> statement-breakpoint
ALTER TABLE "mfa_passkeys" ADD COLUMN "sync_version" bigint NOT NULL DEFAULT nextval('public.site_sync_version_seq');--> statement-breakpoint
ALTER TABLE "mfa_passkeys" ADD COLUMN "sync_changed_at" timestamptz NOT NULL DEFAULT statement_timestamp();--> statement-breakpoint
ALTER TABLE "mfa_passkeys" ALTER COLUMN "sync_changed_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "mfa_passkeys" ALTER COLUMN "sync_version" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "mfa_passkeys_sync_version_idx" ON "mfa_passkeys" USING btree ("tenant_id", "sync_version");--> statement-breakpoint
CREATE TRIGGER "site_sync_stamp" BEFORE INSERT OR UPDATE ON "mfa_passkeys" FOR EACH ROW EXECUTE FUNCTION site_sync_stamp();--> statement-breakpoint
CREATE TRIGGER "site_sync_tombstone" AFTER DELETE ON "mfa_passkeys" FOR EACH ROW EXECUTE FUNCTION site_sync_tombstone();--> statement-breakpoint
ALTER TABLE "approved_vehicles" ADD COLUMN "sync_version" bigint NOT NULL DEFAULT nextval('public.site_sync_version_seq');--> statement-breakpoint
ALTER TABLE "approved_vehicles" ADD COLUMN "sync_changed_at" timestamptz NOT NULL DEFAULT statement_timestamp();--> statement-breakpoint
ALTER TABLE "approved_vehicles" ALTER COLUMN "sync_changed_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "approved_vehicles" ALTER COLUMN "sync_version" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "approved_vehicles_sync_version_idx" ON "approved_vehicles" USING btree ("tenant_id", "sync_version");--> statement-breakpoint
CREATE TRIGGER "site_sync_stamp" BEFORE INSERT OR UPDATE ON "approved_vehicles" FOR EACH ROW EXECUTE FUNCTION site_sync_stamp();--> statement-breakpoint
CREATE TRIGGER "site_sync_tombstone" AFTER DELETE ON "approved_vehicles" FOR EACH ROW EXECUTE FUNCTION site_sync_tombstone();--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "sync_version" bigint NOT NULL DEFAULT nextval('public.site_sync_version_seq');--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "sync_changed_at" timestamptz NOT NULL DEFAULT statement_timestamp();--> statement-breakpoint
ALTER TABLE "drivers" ALTER COLUMN "sync_changed_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "drivers" ALTER COLUMN "sync_version" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "drivers_sync_version_idx" ON "drivers" USING btree ("tenant_id", "sync_version");--> statement-breakpoint
CREATE TRIGGER "site_sync_stamp" BEFORE INSERT OR UPDATE ON "drivers" FOR EACH ROW EXECUTE FUNCTION site_sync_stamp();--> statement-breakpoint
CREATE TRIGGER "site_sync_tombstone" AFTER DELETE ON "drivers" FOR EACH ROW EXECUTE FUNCTION site_sync_tombstone();--> statement-breakpoint
ALTER TABLE "induction_assignments" ADD COLUMN "sync_version" bigint NOT NULL DEFAULT nextval('public.site_sync_version_seq');--> statement-breakpoint
ALTER TABLE "induction_assignments" ADD COLUMN "sync_changed_at" timestamptz NOT NULL DEFAULT statement_timestamp();--> statement-breakpoint
ALTER TABLE "induction_assignments" ALTER COLUMN "sync_changed_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "induction_assignments" ALTER COLUMN "sync_version" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "induction_assignments_sync_version_idx" ON "induction_assignments" USING btree ("tenant_id", "sync_version");--> statement-breakpoint
CREATE TRIGGER "site_sync_stamp" BEFORE INSERT OR UPDATE ON "induction_assignments" FOR EACH ROW EXECUTE FUNCTION site_sync_stamp();--> statement-breakpoint
CREATE TRIGGER "site_sync_tombstone" AFTER DELETE ON "induction_assignments" FOR EACH ROW EXECUTE FUNCTION site_sync_tombstone();--> statement-breakpoint
ALTER TABLE "watchlist_entries" ADD COLUMN "sync_version" bigint NOT NULL DEFAULT nextval('public.site_sync_version_seq');--> statement-breakpoint
ALTER TABLE "watchlist_entries" ADD COLUMN "sync_changed_at" timestamptz NOT NULL DEFAULT statement_timestamp();--> statement-breakpoint
ALTER TABLE "watchlist_entries" ALTER COLUMN "sync_changed_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "watchlist_entries" ALTER COLUMN "sync_version" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "watchlist_entries_sync_version_idx" ON "watchlist_entries" USING btree ("tenant_id", "sync_version");--> statement-breakpoint
CREATE TRIGGER "site_sync_stamp" BEFORE INSERT OR UPDATE ON "watchlist_entries" FOR EACH ROW EXECUTE FUNCTION site_sync_stamp();--> statement-breakpoint
CREATE TRIGGER "site_sync_tombstone" AFTER DELETE ON "watchlist_entries" FOR EACH ROW EXECUTE FUNCTION site_sync_tombstone();--> statement-breakpoint
ALTER TABLE "document_rule_settings" ADD COLUMN "sync_version" bigint NOT NULL DEFAULT nextval('public.site_sync_version_seq');--> statement-breakpoint
ALTER TABLE "document_rule_settings" ADD COLUMN "sync_changed_at" timestamptz NOT NULL DEFAULT statement_timestamp();--> statement-breakpoint
ALTER TABLE "document_rule_settings" ALTER COLUMN "sync_changed_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "document_rule_settings" ALTER COLUMN "sync_version" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "document_rule_settings_sync_version_idx" ON "document_rule_settings" USING btree ("tenant_id", "sync_version");--> statement-breakpoint
CREATE TRIGGER "site_sync_stamp" BEFORE INSERT OR UPDATE ON "document_rule_settings" FOR EACH ROW EXECUTE FUNCTION site_sync_stamp();--> statement-breakpoint
CREATE TRIGGER "site_sync_tombstone" AFTER DELETE ON "document_rule_settings" FOR EACH ROW EXECUTE FUNCTION site_sync_tombstone();--> statement-breakpoint
ALTER TABLE "override_pin_settings" ADD COLUMN "sync_version" bigint NOT NULL DEFAULT nextval('public.site_sync_version_seq');--> statement-breakpoint
ALTER TABLE "override_pin_settings" ADD COLUMN "sync_changed_at" timestamptz NOT NULL DEFAULT statement_timestamp();--> statement-breakpoint
ALTER TABLE "override_pin_settings" ALTER COLUMN "sync_changed_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "override_pin_settings" ALTER COLUMN "sync_version" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "override_pin_settings_sync_version_idx" ON "override_pin_settings" USING btree ("tenant_id", "sync_version");--> statement-breakpoint
CREATE TRIGGER "site_sync_stamp" BEFORE INSERT OR UPDATE ON "override_pin_settings" FOR EACH ROW EXECUTE FUNCTION site_sync_stamp();--> statement-breakpoint
CREATE TRIGGER "site_sync_tombstone" AFTER DELETE ON "override_pin_settings" FOR EACH ROW EXECUTE FUNCTION site_sync_tombstone();--> statement-breakpoint
CREATE TRIGGER "site_sync_user_assigned" AFTER INSERT ON "user_sites" FOR EACH ROW EXECUTE FUNCTION site_sync_user_assigned();--> statement-breakpoint
GRANT UPDATE ("sync_version") ON "users", "mfa_totp", "mfa_passkeys" TO boomgate_app;--> statement-breakpoint
-- An exit that reached central before its entry (another gate's stream) is applied with the entry.
CREATE INDEX "site_sync_events_exit_entry_idx" ON "site_sync_events" USING btree ("tenant_id", ((payload->>'entry_log_id'))) WHERE kind = 'exit';
--> statement-breakpoint
-- A site fact is never rewritten; the one change allowed is erasure (POPIA): members of its
-- payload removed, nothing added or altered (the new payload is contained in the old one).
GRANT UPDATE ("payload") ON "site_sync_events" TO boomgate_app;--> statement-breakpoint
CREATE FUNCTION site_sync_events_erase_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT (OLD.payload @> NEW.payload) THEN
    RAISE EXCEPTION 'site_sync_events: a site fact is not rewritten, only personal data erased'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "site_sync_events_erase_only" BEFORE UPDATE ON "site_sync_events" FOR EACH ROW EXECUTE FUNCTION site_sync_events_erase_only();
