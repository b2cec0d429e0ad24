DROP INDEX "drivers_one_per_id_number";--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "id_number_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "drivers_one_per_id_number_hash" ON "drivers" USING btree ("tenant_id","id_number_hash");