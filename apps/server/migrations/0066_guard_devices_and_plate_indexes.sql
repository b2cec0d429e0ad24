DROP INDEX "guard_devices_by_contact_idx";--> statement-breakpoint
CREATE INDEX "entry_logs_tenant_plate_timestamp_idx" ON "entry_logs" USING btree ("tenant_id","plate_number","timestamp","id");--> statement-breakpoint
CREATE INDEX "guard_devices_by_contact_idx" ON "guard_devices" USING btree ("tenant_id","last_contact_at");