-- Issue 16: a number-plate camera belongs to a site (its reads are that site's), and a booking
-- system may name the site of an entry it pushes. anpr_cameras keeps its tenant policy (0005); the
-- new columns are covered by its table-level grants.
-- A camera created without a site is at the tenant's default site (0062's invoker function).
CREATE TRIGGER anpr_cameras_default_site BEFORE INSERT ON "anpr_cameras"
  FOR EACH ROW EXECUTE FUNCTION fill_default_site();--> statement-breakpoint
UPDATE "anpr_cameras" c SET "site_id" = s.id FROM "sites" s
  WHERE s.tenant_id = c.tenant_id AND s.is_default AND c.site_id IS NULL;--> statement-breakpoint
-- The signed incoming webhook with a site: 0006's function plus p_site_id (null: the default
-- site, filled by 0062's trigger). The caller has checked the site is the tenant's; the composite
-- foreign key refuses any other.
CREATE FUNCTION incoming_request_receive(
  p_tenant_id uuid, p_id uuid, p_webhook_id text, p_received_at timestamptz, p_timestamp timestamptz,
  p_plate_number text, p_driver_name text, p_driver_surname text, p_driver_id_number text,
  p_driver_phone1 text, p_transport_name text, p_reference_number text,
  p_weighbridge_ticket_id text, p_extracted_disk_data text, p_site_id uuid
)
RETURNS TABLE (id uuid, duplicate boolean)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER SET search_path = public, pg_temp AS $$
DECLARE
  v_current text := nullif(current_setting('app.tenant_id', true), '');
  v_id uuid;
BEGIN
  IF v_current IS NOT NULL AND v_current <> p_tenant_id::text THEN
    RAISE EXCEPTION 'incoming_request_receive called inside another tenant''s transaction';
  END IF;
  PERFORM set_config('app.tenant_id', p_tenant_id::text, true);
  INSERT INTO incoming_requests AS r (
    tenant_id, id, webhook_id, received_at, "timestamp", plate_number, driver_name, driver_surname,
    driver_id_number, driver_phone1, transport_name, reference_number, weighbridge_ticket_id,
    extracted_disk_data, site_id
  ) VALUES (
    p_tenant_id, p_id, p_webhook_id, p_received_at, p_timestamp, p_plate_number, p_driver_name,
    p_driver_surname, p_driver_id_number, p_driver_phone1, p_transport_name, p_reference_number,
    p_weighbridge_ticket_id, p_extracted_disk_data, p_site_id
  )
  ON CONFLICT (tenant_id, webhook_id) DO NOTHING
  RETURNING r.id INTO v_id;
  IF v_id IS NOT NULL THEN
    RETURN QUERY SELECT v_id, false;
  ELSE
    -- A redelivery: under READ COMMITTED this statement sees the row the first delivery committed.
    RETURN QUERY SELECT r.id, true FROM incoming_requests r
      WHERE r.tenant_id = p_tenant_id AND r.webhook_id = p_webhook_id;
  END IF;
END
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION incoming_request_receive(uuid, uuid, text, timestamptz, timestamptz, text, text, text, text, text, text, text, text, text, uuid) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION incoming_request_receive(uuid, uuid, text, timestamptz, timestamptz, text, text, text, text, text, text, text, text, text, uuid) TO boomgate_app;
