ALTER TABLE "approved_vehicles" ADD COLUMN "driver_face_descriptor" text;--> statement-breakpoint
ALTER TABLE "approved_vehicles" ADD COLUMN "face_model_version" text;--> statement-breakpoint
ALTER TABLE "approved_vehicles" ADD COLUMN "biometrics_purge_after" timestamp with time zone;