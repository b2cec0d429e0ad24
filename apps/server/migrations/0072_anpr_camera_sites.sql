ALTER TABLE "anpr_cameras" ADD COLUMN "site_id" uuid;--> statement-breakpoint
ALTER TABLE "anpr_cameras" ADD COLUMN "gate_id" uuid;--> statement-breakpoint
ALTER TABLE "anpr_cameras" ADD CONSTRAINT "anpr_cameras_tenant_id_site_id_sites_tenant_id_id_fk" FOREIGN KEY ("tenant_id","site_id") REFERENCES "public"."sites"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "anpr_cameras" ADD CONSTRAINT "anpr_cameras_tenant_id_gate_id_gates_tenant_id_id_fk" FOREIGN KEY ("tenant_id","gate_id") REFERENCES "public"."gates"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "anpr_cameras_site_idx" ON "anpr_cameras" USING btree ("tenant_id","site_id");--> statement-breakpoint
CREATE INDEX "anpr_cameras_gate_idx" ON "anpr_cameras" USING btree ("tenant_id","gate_id");