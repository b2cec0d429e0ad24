import { XMLParser } from 'fast-xml-parser';

/** What Boomgate takes from a Hikvision ISAPI `EventNotificationAlert`. */
export type HikvisionAlert = {
  eventType: string;
  eventState: string | null;
  /** ANPR events only. */
  plateNumber: string | null;
  dateTime: Date | null;
  channelName: string | null;
  confidenceLevel: number | null;
  vehicleType: string | null;
};

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false, // a plate like 123456 must stay text
  processEntities: false, // no entity expansion from camera input
  trimValues: true,
});

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/**
 * Reads the event XML a Hikvision camera pushes to an HTTP host (ISAPI "alarm server"). ANPR
 * events carry `<ANPR><licensePlate>`; heartbeats and other events carry none. Throws on XML that
 * is not an EventNotificationAlert.
 */
export function parseHikvisionAlert(xml: string): HikvisionAlert {
  let document: unknown;
  try {
    document = parser.parse(xml, true);
  } catch {
    throw new Error('The event is not well-formed XML.');
  }
  const alert = (document as { EventNotificationAlert?: Record<string, unknown> } | undefined)
    ?.EventNotificationAlert;
  if (!alert || typeof alert !== 'object') {
    throw new Error('The event is not an EventNotificationAlert.');
  }
  const anpr = (alert.ANPR ?? {}) as Record<string, unknown>;
  const dateTime = text(alert.dateTime);
  const parsedDate = dateTime ? new Date(dateTime) : null;
  const confidence = Number(text(anpr.confidenceLevel));
  return {
    eventType: text(alert.eventType) ?? 'unknown',
    eventState: text(alert.eventState),
    plateNumber: text(anpr.licensePlate) ?? text(anpr.originalLicensePlate),
    dateTime: parsedDate && !Number.isNaN(parsedDate.getTime()) ? parsedDate : null,
    channelName: text(alert.channelName),
    confidenceLevel: Number.isFinite(confidence) && text(anpr.confidenceLevel) ? confidence : null,
    vehicleType: text(anpr.vehicleType),
  };
}
