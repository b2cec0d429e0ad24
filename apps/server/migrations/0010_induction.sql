CREATE TABLE "induction_assignments" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"video_id" uuid NOT NULL,
	"driver_name" text NOT NULL,
	"driver_id_number" text NOT NULL,
	"driver_photo_key" text,
	"status" text DEFAULT 'assigned' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_score" integer,
	"watched_seconds" real DEFAULT 0 NOT NULL,
	"last_heartbeat_at" timestamp with time zone,
	"passed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "induction_assignments_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "induction_attempts" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"assignment_id" uuid NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"submitted_by" uuid,
	"responses" jsonb NOT NULL,
	"correct_answers" integer NOT NULL,
	"total_questions" integer NOT NULL,
	"score" integer NOT NULL,
	"pass_score" integer NOT NULL,
	"passed" boolean NOT NULL,
	"watched_seconds" real NOT NULL,
	"reported_watched_seconds" real,
	CONSTRAINT "induction_attempts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "safety_videos" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"video_key" text,
	"video_url" text,
	"content_type" text,
	"size_bytes" integer,
	"duration_seconds" real NOT NULL,
	"pass_score" integer NOT NULL,
	"questions" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "safety_videos_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "induction_assignments" ADD CONSTRAINT "induction_assignments_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "induction_assignments" ADD CONSTRAINT "induction_assignments_tenant_id_video_id_safety_videos_tenant_id_id_fk" FOREIGN KEY ("tenant_id","video_id") REFERENCES "public"."safety_videos"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "induction_attempts" ADD CONSTRAINT "induction_attempts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "induction_attempts" ADD CONSTRAINT "induction_attempts_tenant_id_assignment_id_induction_assignments_tenant_id_id_fk" FOREIGN KEY ("tenant_id","assignment_id") REFERENCES "public"."induction_assignments"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safety_videos" ADD CONSTRAINT "safety_videos_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "induction_assignments_tenant_video_idx" ON "induction_assignments" USING btree ("tenant_id","video_id");--> statement-breakpoint
CREATE INDEX "induction_assignments_tenant_driver_idx" ON "induction_assignments" USING btree ("tenant_id","driver_id_number","passed_at");--> statement-breakpoint
CREATE INDEX "induction_assignments_tenant_created_idx" ON "induction_assignments" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "induction_attempts_tenant_assignment_idx" ON "induction_attempts" USING btree ("tenant_id","assignment_id");