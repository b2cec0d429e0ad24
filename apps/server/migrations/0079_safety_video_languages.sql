ALTER TABLE "induction_assignments" ADD COLUMN "driver_language" text;--> statement-breakpoint
ALTER TABLE "safety_videos" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "safety_videos" ADD COLUMN "translation_of" uuid;--> statement-breakpoint
ALTER TABLE "safety_videos" ADD CONSTRAINT "safety_videos_tenant_id_translation_of_safety_videos_tenant_id_id_fk" FOREIGN KEY ("tenant_id","translation_of") REFERENCES "public"."safety_videos"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "safety_videos_tenant_root_language_idx" ON "safety_videos" USING btree ("tenant_id",coalesce("translation_of", "id"),"language");