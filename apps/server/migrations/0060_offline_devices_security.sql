-- Offline guard app (issue 18): row-level security on the guard devices like every tenant table
-- (0001), and the API role's privileges. A device row is never deleted: its revocation is kept so
-- the device is refused at every later contact.
ALTER TABLE "guard_devices" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "guard_devices" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "guard_devices" FOR ALL
  USING ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid))
  WITH CHECK ("tenant_id" = (select nullif(current_setting('app.tenant_id', true), '')::uuid));--> statement-breakpoint
GRANT SELECT, INSERT ON "guard_devices" TO boomgate_app;--> statement-breakpoint
GRANT UPDATE ("label", "last_user_id", "last_user_name", "last_contact_at", "revoked_at",
  "revoked_by", "revoked_by_name") ON "guard_devices" TO boomgate_app;--> statement-breakpoint
-- An exit replayed from a device's queue is recognised by its Idempotency-Key.
GRANT UPDATE ("exit_idempotency_key") ON "visits" TO boomgate_app;
