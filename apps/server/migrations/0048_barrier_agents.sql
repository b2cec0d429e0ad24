CREATE TABLE "gate_agents" (
	"tenant_id" uuid NOT NULL,
	"gate_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"created_by" uuid,
	"device" text,
	"last_seen_at" timestamp (3) with time zone,
	CONSTRAINT "gate_agents_tenant_id_gate_id_pk" PRIMARY KEY("tenant_id","gate_id")
);
--> statement-breakpoint
ALTER TABLE "gate_agents" ADD CONSTRAINT "gate_agents_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gate_agents" ADD CONSTRAINT "gate_agents_tenant_id_gate_id_gates_tenant_id_id_fk" FOREIGN KEY ("tenant_id","gate_id") REFERENCES "public"."gates"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gate_agents_token_hash_idx" ON "gate_agents" USING btree ("token_hash");