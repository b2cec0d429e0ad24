-- Sites, gates and site assignments (issue 16): row-level security like every tenant table
-- (0001), the API role's privileges, and every existing tenant's data moved into a default site
-- with one gate.
ALTER TABLE "sites" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "sites" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "sites" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "gates" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "gates" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "gates" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
ALTER TABLE "user_sites" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "user_sites" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "user_sites" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
-- Sites and gates are configuration: renamed, retimed or retired (is_active), never deleted, since
-- entries and visits refer to them. A user's assignments are replaced as a whole.
GRANT SELECT, INSERT ON "sites", "gates" TO boomgate_app;--> statement-breakpoint
GRANT UPDATE ("name", "timezone", "overstay_minutes", "is_active") ON "sites" TO boomgate_app;--> statement-breakpoint
GRANT UPDATE ("name", "lanes", "is_active") ON "gates" TO boomgate_app;--> statement-breakpoint
GRANT SELECT, INSERT, DELETE ON "user_sites" TO boomgate_app;--> statement-breakpoint
-- Existing data: one default site and gate per tenant, and every entry placed there. NO FORCE
-- lets an owner that is not a superuser see every tenant for these statements (as in 0015); the
-- entry triggers are paused because placing old entries is not a change of their record (the
-- erase-only rule) nor of the day counts.
ALTER TABLE "tenants" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "entry_logs" NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
INSERT INTO "sites" ("tenant_id", "id", "name", "is_default")
  SELECT "id", gen_random_uuid(), 'Main site', true FROM "tenants";--> statement-breakpoint
INSERT INTO "gates" ("tenant_id", "id", "site_id", "name", "lanes")
  SELECT "tenant_id", gen_random_uuid(), "id", 'Main gate', '[{"name":"Lane 1","direction":"both"}]'::jsonb
  FROM "sites" WHERE "is_default";--> statement-breakpoint
ALTER TABLE "entry_logs" DISABLE TRIGGER "entry_logs_erase_only";--> statement-breakpoint
ALTER TABLE "entry_logs" DISABLE TRIGGER "entry_logs_count_updates";--> statement-breakpoint
UPDATE "entry_logs" e SET "site_id" = g."site_id", "gate_id" = g."id"
  FROM "gates" g WHERE g."tenant_id" = e."tenant_id";--> statement-breakpoint
ALTER TABLE "entry_logs" ENABLE TRIGGER "entry_logs_count_updates";--> statement-breakpoint
ALTER TABLE "entry_logs" ENABLE TRIGGER "entry_logs_erase_only";--> statement-breakpoint
ALTER TABLE "entry_logs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "tenants" FORCE ROW LEVEL SECURITY;
