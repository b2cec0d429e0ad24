CREATE TABLE "safety_video_uploads" (
	"tenant_id" uuid NOT NULL,
	"file_key" text NOT NULL,
	"uploaded_at" timestamp with time zone NOT NULL,
	"uploaded_by" uuid,
	CONSTRAINT "safety_video_uploads_tenant_id_file_key_pk" PRIMARY KEY("tenant_id","file_key")
);
--> statement-breakpoint
ALTER TABLE "safety_video_uploads" ADD CONSTRAINT "safety_video_uploads_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "safety_video_uploads_uploaded_idx" ON "safety_video_uploads" USING btree ("uploaded_at");