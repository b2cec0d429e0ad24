ALTER TABLE "captures" ADD COLUMN "number_hashes" text[];--> statement-breakpoint
ALTER TABLE "reading_corrections" ADD COLUMN "typed_value_hash" text;