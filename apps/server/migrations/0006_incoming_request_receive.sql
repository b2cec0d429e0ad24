-- Storing an inbound entry in one round trip (measured: the four statements of a tenant
-- transaction cost ~40% of the API's CPU per post in bench:ingest). The function is SECURITY
-- INVOKER: row-level security applies to boomgate_app as in any tenant transaction. It sets the
-- tenant with set_config(…, true), so the setting ends with the caller's transaction, and it
-- refuses to run inside a transaction that already belongs to another tenant.
CREATE FUNCTION incoming_request_receive(
  p_tenant_id uuid, p_id uuid, p_webhook_id text, p_received_at timestamptz, p_timestamp timestamptz,
  p_plate_number text, p_driver_name text, p_driver_surname text, p_driver_id_number text,
  p_driver_phone1 text, p_transport_name text, p_reference_number text,
  p_weighbridge_ticket_id text, p_extracted_disk_data text
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
    extracted_disk_data
  ) VALUES (
    p_tenant_id, p_id, p_webhook_id, p_received_at, p_timestamp, p_plate_number, p_driver_name,
    p_driver_surname, p_driver_id_number, p_driver_phone1, p_transport_name, p_reference_number,
    p_weighbridge_ticket_id, p_extracted_disk_data
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
REVOKE ALL ON FUNCTION incoming_request_receive(uuid, uuid, text, timestamptz, timestamptz, text, text, text, text, text, text, text, text, text) FROM PUBLIC;--> statement-breakpoint
GRANT EXECUTE ON FUNCTION incoming_request_receive(uuid, uuid, text, timestamptz, timestamptz, text, text, text, text, text, text, text, text, text) TO boomgate_app;
