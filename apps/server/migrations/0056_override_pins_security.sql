-- Supervisor override PINs (issue 21): row-level security like every tenant table and the API
-- role's privileges. A PIN row is never deleted by the API: spent and expired PINs stay as evidence.
ALTER TABLE "override_pin_settings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "override_pin_settings" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "override_pin_settings" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON "override_pin_settings" TO boomgate_app;--> statement-breakpoint
ALTER TABLE "override_pins" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "override_pins" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "override_pins" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT ON "override_pins" TO boomgate_app;--> statement-breakpoint
-- Spending a PIN is the only change.
GRANT UPDATE ("used_at", "used_by", "entry_id") ON "override_pins" TO boomgate_app;
