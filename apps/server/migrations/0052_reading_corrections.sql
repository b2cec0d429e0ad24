CREATE TABLE "reading_corrections" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"capture_id" uuid,
	"reading_type" text NOT NULL,
	"field" text NOT NULL,
	"kind" text NOT NULL,
	"read_value" jsonb,
	"read_confidence" real,
	"read_source" text,
	"was_uncertain" boolean NOT NULL,
	"typed_value" text NOT NULL,
	"corrected_by" uuid,
	"corrected_by_name" text,
	"corrected_at" timestamp (3) with time zone NOT NULL,
	"entry_log_id" uuid,
	"document_type" text,
	"document_id" uuid,
	CONSTRAINT "reading_corrections_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "reading_corrections" ADD CONSTRAINT "reading_corrections_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reading_corrections_entry_idx" ON "reading_corrections" USING btree ("tenant_id","entry_log_id");--> statement-breakpoint
CREATE INDEX "reading_corrections_document_idx" ON "reading_corrections" USING btree ("tenant_id","document_id");