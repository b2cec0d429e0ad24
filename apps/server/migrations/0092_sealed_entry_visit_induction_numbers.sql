DROP INDEX "induction_assignments_tenant_driver_idx";--> statement-breakpoint
ALTER TABLE "entry_logs" ADD COLUMN "driver_id_number_hash" text;--> statement-breakpoint
ALTER TABLE "entry_logs" ADD COLUMN "driver_passport_number_hash" text;--> statement-breakpoint
ALTER TABLE "induction_assignments" ADD COLUMN "driver_id_number_hash" text;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "person_id_number_hash" text;--> statement-breakpoint
CREATE INDEX "entry_logs_tenant_id_number_hash_idx" ON "entry_logs" USING btree ("tenant_id","driver_id_number_hash") WHERE driver_id_number_hash is not null;--> statement-breakpoint
CREATE INDEX "entry_logs_tenant_passport_number_hash_idx" ON "entry_logs" USING btree ("tenant_id","driver_passport_number_hash") WHERE driver_passport_number_hash is not null;--> statement-breakpoint
CREATE INDEX "entry_logs_unsealed_idx" ON "entry_logs" USING btree ("tenant_id") WHERE (driver_id_number is not null and (driver_id_number_hash is null or driver_id_number not like 'sv1.%')) or (driver_passport_number is not null and (driver_passport_number_hash is null or driver_passport_number not like 'sv1.%'));--> statement-breakpoint
CREATE INDEX "induction_assignments_tenant_driver_hash_idx" ON "induction_assignments" USING btree ("tenant_id","driver_id_number_hash","passed_at");--> statement-breakpoint
CREATE INDEX "visits_tenant_person_hash_idx" ON "visits" USING btree ("tenant_id","person_id_number_hash") WHERE person_id_number_hash is not null;