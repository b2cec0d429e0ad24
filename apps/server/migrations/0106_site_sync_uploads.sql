CREATE TABLE "site_sync_uploads" (
	"tenant_id" uuid NOT NULL,
	"key" text NOT NULL,
	"site_id" uuid NOT NULL,
	"uploaded_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "site_sync_uploads_tenant_id_key_pk" PRIMARY KEY("tenant_id","key")
);
--> statement-breakpoint
ALTER TABLE "site_sync_uploads" ADD CONSTRAINT "site_sync_uploads_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_sync_uploads_uploaded_at_idx" ON "site_sync_uploads" USING btree ("uploaded_at");