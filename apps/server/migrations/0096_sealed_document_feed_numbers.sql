DROP INDEX "drivers_licences_tenant_id_number_idx";--> statement-breakpoint
DROP INDEX "identity_documents_tenant_number_idx";--> statement-breakpoint
DROP INDEX "passports_tenant_number_idx";--> statement-breakpoint
ALTER TABLE "drivers_licences" ALTER COLUMN "fields" SET DATA TYPE text USING "fields"::text;--> statement-breakpoint
ALTER TABLE "drivers_licences" ALTER COLUMN "fields" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "identity_documents" ALTER COLUMN "fields" SET DATA TYPE text USING "fields"::text;--> statement-breakpoint
ALTER TABLE "identity_documents" ALTER COLUMN "fields" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "passports" ALTER COLUMN "fields" SET DATA TYPE text USING "fields"::text;--> statement-breakpoint
ALTER TABLE "passports" ALTER COLUMN "fields" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "drivers_licences" ADD COLUMN "id_number_hash" text;--> statement-breakpoint
ALTER TABLE "identity_documents" ADD COLUMN "identity_number_hash" text;--> statement-breakpoint
ALTER TABLE "passports" ADD COLUMN "passport_number_hash" text;--> statement-breakpoint
ALTER TABLE "incoming_requests" ADD COLUMN "driver_id_number_hash" text;--> statement-breakpoint
CREATE INDEX "drivers_licences_tenant_id_number_hash_idx" ON "drivers_licences" USING btree ("tenant_id","id_number_hash");--> statement-breakpoint
CREATE INDEX "drivers_licences_unsealed_idx" ON "drivers_licences" USING btree ("tenant_id") WHERE (id_number is not null and (id_number_hash is null or id_number not like 'sv1.%')) or (fields is not null and fields not like 'sv1.%');--> statement-breakpoint
CREATE INDEX "identity_documents_tenant_number_hash_idx" ON "identity_documents" USING btree ("tenant_id","identity_number_hash");--> statement-breakpoint
CREATE INDEX "identity_documents_unsealed_idx" ON "identity_documents" USING btree ("tenant_id") WHERE (identity_number is not null and (identity_number_hash is null or identity_number not like 'sv1.%')) or (fields is not null and fields not like 'sv1.%');--> statement-breakpoint
CREATE INDEX "passports_tenant_number_hash_idx" ON "passports" USING btree ("tenant_id","passport_number_hash");--> statement-breakpoint
CREATE INDEX "passports_unsealed_idx" ON "passports" USING btree ("tenant_id") WHERE (passport_number is not null and (passport_number_hash is null or passport_number not like 'sv1.%')) or (fields is not null and fields not like 'sv1.%');--> statement-breakpoint
CREATE INDEX "incoming_requests_tenant_id_number_hash_idx" ON "incoming_requests" USING btree ("tenant_id","driver_id_number_hash") WHERE driver_id_number_hash is not null;--> statement-breakpoint
CREATE INDEX "incoming_requests_unsealed_idx" ON "incoming_requests" USING btree ("tenant_id") WHERE driver_id_number is not null and (driver_id_number_hash is null or driver_id_number not like 'sv1.%');