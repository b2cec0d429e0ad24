DROP INDEX "induction_assignments_tenant_driver_idx";--> statement-breakpoint
ALTER TABLE "induction_assignments" ADD COLUMN "driver_id_number_hash" text;--> statement-breakpoint
CREATE INDEX "induction_assignments_tenant_driver_hash_idx" ON "induction_assignments" USING btree ("tenant_id","driver_id_number_hash","passed_at");