/** Test helpers for packages that use @boomgate/vision: a fake engine and fixture builders. */
export { createFakeVisionEngine } from './fake-engine';
export { makePhotoLike, renderPdf417 } from './barcode-fixture';
export {
  aSadlRecordFields,
  buildSadlRecord,
  encryptSadlRecord,
  generateTestSadlKeys,
} from './sadl-fixture';
export { aWeighbridgeTicketText, renderWeighbridgeTicket } from './weighbridge-fixture';
export { aPixelBombPng } from './bad-images';
export {
  SA_PLATES,
  SADC_PLATES,
  plateSvg,
  renderPlatePhoto,
  renderTightPlateCrop,
  renderTwoRowPlate,
} from './plate-fixture';
export { ICAO_TD3, renderBarcodeCardPhoto, renderPassportPhoto } from './document-fixture';
export { startFakeAiServer, type FakeAiServer } from './fake-ai-server';
export {
  frontalSampleFace,
  noFaceImage,
  sampleFace,
  twoFacesSideBySide,
} from '../faces/testing/sample-faces';
