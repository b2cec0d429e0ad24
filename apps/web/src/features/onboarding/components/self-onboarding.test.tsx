import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import type { ApiError } from '@boomgate/contracts/api-error';
import type { SelfOnboarded, SelfOnboardingBody } from '@boomgate/contracts/drivers';
import type { Dashboard } from '@boomgate/contracts/entry-logs';
import type { OcrRequest, OcrResponse } from '@boomgate/contracts/ocr';

import { aSession } from '@/testing/data';
import { apiError, signedIn } from '@/testing/handlers';
import { currentPath, expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';
import type { Pose } from '@/testing/synthetic-face';

import type * as LivenessCheckModule from '../liveness/liveness-check';

/** Short prompts so a whole check takes about a second of real time. */
const TEST_TIMING = vi.hoisted(() => ({ promptMs: 300, sampleIntervalMs: 10, verifyingMs: 30 }));

type FakeFaceModel = {
  script: (fraction: number) => Pose | null;
  isNoisy: boolean;
  startedAt: number | null;
  frames: number;
};

/**
 * The face model, faked at its boundary: each detection returns the landmarks the current script
 * gives for the time since the check's first frame (in prompts: 0–4), or no face.
 */
const faceModel = vi.hoisted((): FakeFaceModel => ({
  script: () => ({}),
  isNoisy: true,
  startedAt: null,
  frames: 0,
}));

vi.mock('../liveness/face-landmarks', async () => {
  const { syntheticFace: face, withJitter: jitter } = await import('@/testing/synthetic-face');
  return {
    loadFaceLandmarkDetector: async () => ({
      backend: 'cpu',
      detect: async () => {
        faceModel.startedAt ??= performance.now();
        faceModel.frames += 1;
        const pose = faceModel.script(
          (performance.now() - faceModel.startedAt) / TEST_TIMING.promptMs,
        );
        if (!pose) return null;
        return faceModel.isNoisy ? jitter(face(pose), faceModel.frames) : face(pose);
      },
      // The frame last looked at, named by its number (jsdom cannot encode a canvas).
      captureDetectedFrame: () => `data:image/jpeg;base64,frame-${faceModel.frames}`,
    }),
  };
});

vi.mock('../liveness/liveness-check', async (importOriginal) => ({
  ...(await importOriginal<typeof LivenessCheckModule>()),
  LIVENESS_TIMING: TEST_TIMING,
}));

// jsdom cannot draw a video frame; the selfie is whatever the camera "sees".
vi.mock('@/components/camera/capture-frame', () => ({
  captureFrame: () => 'data:image/jpeg;base64,c2VsZmll',
}));

/** Follows each prompt, generously (a long blink, long turns), so timer jitter cannot miss it. */
const followsPrompts = (fraction: number): Pose => {
  if (fraction >= 1.2 && fraction < 1.6) return { eyeOpen: 0.1 };
  if (fraction >= 2.15 && fraction < 3) return { yawDeg: 30 };
  if (fraction >= 3.15) return { yawDeg: -30 };
  return {};
};

function useScript(script: (fraction: number) => Pose | null, { isNoisy = true } = {}) {
  faceModel.script = script;
  faceModel.isNoisy = isNoisy;
  faceModel.startedAt = null;
  faceModel.frames = 0;
}

function installCamera() {
  const getUserMedia = vi.fn(
    async () =>
      ({
        getTracks: () => [{ stop: vi.fn(), kind: 'video' }],
        getVideoTracks: () => [{ stop: vi.fn(), kind: 'video' }],
      }) as unknown as MediaStream,
  );
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia },
  });
  return getUserMedia;
}

const JPEG = Uint8Array.from(atob('/9j/4AAQSkZJRgABAQAAAQABAAD/2Q=='), (c) => c.charCodeAt(0));
const licencePhoto = () => new File([JPEG], 'licence.jpg', { type: 'image/jpeg' });

function ocrResult(fields: Record<string, unknown>, ok = true): OcrResponse {
  return {
    ok,
    type: 'license',
    extractedText: ok ? JSON.stringify(fields) : '',
    text: '',
    fields,
    source: ok ? 'barcode' : null,
    confidence: ok ? 0.99 : 0,
    captureId: '0b5c2f0e-7d5e-4c61-9a55-3c1f8c0de002',
    reading: null,
    ...(ok ? {} : { message: 'No licence barcode or licence text found.' }),
  };
}

const EMPTY_DASHBOARD: Dashboard = {
  totalEntries: 0,
  todayEntries: 0,
  approvedEntries: 0,
  grantedEntries: 0,
  faceVerifiedEntries: 0,
  approvalRate: 0,
  verificationRate: 0,
  registeredVehicles: 0,
  activeUsers: 1,
  recentEntries: [],
};

function setUp(
  ocr: () => HttpResponse<OcrResponse | ApiError> = () => HttpResponse.json(ocrResult({}, false)),
) {
  const ocrRequests: OcrRequest[] = [];
  server.use(
    signedIn(aSession()),
    http.post<never, OcrRequest, OcrResponse | ApiError>('/api/ocr', async ({ request }) => {
      ocrRequests.push(await request.json());
      return ocr();
    }),
    http.get<never, never, Dashboard>('/api/dashboard', () => HttpResponse.json(EMPTY_DASHBOARD)),
  );
  const view = renderApp('/onboard/self');
  return { ...view, ocrRequests };
}

const continueButton = () => screen.getByRole('button', { name: 'Continue' });

async function fillPersonalInfo(
  user: UserEvent,
  values: { name?: string; surname?: string; idNumber?: string; phone?: string } = {},
) {
  const {
    name = 'Sipho',
    surname = 'Dlamini',
    idNumber = '8001015009087',
    phone = '082 123 4567',
  } = values;
  await user.type(await screen.findByLabelText('First Name'), name);
  await user.type(screen.getByLabelText('Surname'), surname);
  await user.type(screen.getByLabelText('ID Number'), idNumber);
  await user.type(screen.getByLabelText('Phone Number'), phone);
  await user.click(continueButton());
  await screen.findByRole('heading', { level: 2, name: "Driver's Licence" });
}

async function uploadLicence(user: UserEvent) {
  await user.click(screen.getByRole('button', { name: 'Capture Licence Photo' }));
  const dialog = await screen.findByRole('dialog', { name: "Driver's Licence" });
  await user.upload(within(dialog).getByLabelText('Upload Image'), licencePhoto());
  await screen.findByRole('img', { name: "Your driver's licence, as captured" });
  await waitFor(() =>
    expect(screen.queryByText('Reading your licence...')).not.toBeInTheDocument(),
  );
}

/** On the face step: waits for the (fake) model and camera, then starts the check. */
async function startLiveness(user: UserEvent, name = 'Start Liveness Check') {
  const video = await screen.findByTestId('liveness-preview');
  await waitFor(() => expect((video as HTMLVideoElement).srcObject).toBeTruthy());
  fireEvent.loadedMetadata(video);
  const start = screen.getByRole('button', { name });
  await waitFor(() => expect(start).toBeEnabled());
  await user.click(start);
}

async function livenessEnd() {
  const check = screen.getByTestId('liveness-check');
  await waitFor(
    () => expect(['passed', 'failed', 'error']).toContain(check.getAttribute('data-status')),
    { timeout: 5000 },
  );
  return check.getAttribute('data-status');
}

beforeEach(() => {
  installCamera();
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  useScript(followsPrompts);
});

describe('self onboarding', () => {
  it('shows step 1 of 4 with Back to /onboarding', async () => {
    const { user } = setUp();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Self Onboarding' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 4')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Personal Information' })).toBeVisible();

    await user.click(screen.getByRole('link', { name: 'Back' }));
    await waitFor(() => expect(currentPath()).toBe('/onboarding'));
  });

  it('requires every personal detail and a valid South African ID number', async () => {
    const { user } = setUp();
    await screen.findByLabelText('First Name');

    await user.click(continueButton());
    expect(await screen.findByText('Enter your first name.')).toBeInTheDocument();
    expect(screen.getByText('Enter your surname.')).toBeInTheDocument();
    expect(screen.getByText('Enter your ID number.')).toBeInTheDocument();
    expect(screen.getByText('Enter your phone number.')).toBeInTheDocument();
    expect(screen.getByLabelText('First Name')).toHaveAttribute('aria-invalid', 'true');

    const idNumber = screen.getByLabelText('ID Number');
    expect(idNumber).toHaveAttribute('maxLength', '13');
    await user.type(idNumber, '80010150090861234');
    expect(idNumber).toHaveValue('8001015009086');
    await user.type(screen.getByLabelText('Phone Number'), '12345');
    await user.click(continueButton());
    expect(
      await screen.findByText(
        'This is not a valid South African ID number: please check the digits.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(/Enter a South African number/)).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 4')).toBeInTheDocument();

    await user.clear(idNumber);
    await user.type(idNumber, '8013015009087');
    await user.click(continueButton());
    expect(
      await screen.findByText('The first six digits must be a date of birth (YYMMDD).'),
    ).toBeInTheDocument();
  });

  it('keeps Continue disabled on the licence step until there is a photo', async () => {
    const { user } = setUp();
    await fillPersonalInfo(user);

    expect(screen.getByText('Step 2 of 4')).toBeInTheDocument();
    expect(continueButton()).toBeDisabled();
  });

  it('reads the licence: fills in its number and expiry, and flags details that differ', async () => {
    const { user, ocrRequests } = setUp(() =>
      HttpResponse.json(
        ocrResult({
          surname: 'DLAMINI',
          initials: 'S',
          nameOnCard: 'S DLAMINI',
          idNumber: '02/9307150123081',
          licenceNumber: '40170001ABCD',
          validTo: '2031-05-31',
        }),
      ),
    );
    await fillPersonalInfo(user);

    await uploadLicence(user);

    expect(ocrRequests).toHaveLength(1);
    expect(ocrRequests[0]?.type).toBe('license');
    expect(ocrRequests[0]?.image).toMatch(/^data:image\/jpeg;base64,/);
    const summary = screen.getByRole('region', { name: 'Read from your licence' });
    expect(within(summary).getByText('S DLAMINI')).toBeInTheDocument();
    expect(within(summary).getByText('9307150123081')).toBeInTheDocument();
    expect(screen.getByLabelText('Licence Number (optional)')).toHaveValue('40170001ABCD');
    expect(screen.getByLabelText('Valid To (optional)')).toHaveValue('2031-05-31');
    // The surname agrees (case aside); the ID number typed on step 1 does not.
    const warning = screen.getByText('Your licence says something different').parentElement!;
    expect(warning).toHaveTextContent(
      'ID number: you entered 8001015009087, the licence shows 9307150123081.',
    );
    expect(warning).not.toHaveTextContent('Surname');

    await user.click(screen.getByRole('button', { name: 'Use Licence Details' }));
    expect(screen.queryByText('Your licence says something different')).not.toBeInTheDocument();
    expect(continueButton()).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByLabelText('ID Number')).toHaveValue('9307150123081');
    expect(screen.getByLabelText('Surname')).toHaveValue('Dlamini');
  });

  it("offers the licence's full names when they differ from what was typed", async () => {
    const { user } = setUp(() =>
      HttpResponse.json(
        ocrResult({ surname: 'NKOSI', givenNames: 'THANDI', idNumber: '8001015009087' }),
      ),
    );
    await fillPersonalInfo(user, { name: 'Tandi', surname: 'Nkosi-Mabaso' });

    await uploadLicence(user);

    const warning = screen.getByText('Your licence says something different').parentElement!;
    expect(warning).toHaveTextContent('First name: you entered Tandi, the licence shows THANDI.');
    expect(warning).toHaveTextContent(
      'Surname: you entered Nkosi-Mabaso, the licence shows NKOSI.',
    );
    expect(warning).not.toHaveTextContent('ID number');

    await user.click(screen.getByRole('button', { name: 'Use Licence Details' }));
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByLabelText('First Name')).toHaveValue('THANDI');
    expect(screen.getByLabelText('Surname')).toHaveValue('NKOSI');
  });

  it('continues with the photo when nothing could be read', async () => {
    const { user } = setUp();
    await fillPersonalInfo(user);

    await uploadLicence(user);

    await expectToast('No Data Found', 'No licence barcode or licence text found.');
    expect(screen.getByText('Nothing was read from this photo')).toBeInTheDocument();
    expect(continueButton()).toBeEnabled();
    await user.type(screen.getByLabelText('Licence Number (optional)'), '40170001ABCD');
    await user.click(continueButton());
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Face Verification' }),
    ).toBeInTheDocument();
  });

  it('continues with the photo when the reader fails', async () => {
    const { user } = setUp(() =>
      apiError(503, 'UNAVAILABLE', 'The image reader is busy. Please try again in a moment.'),
    );
    await fillPersonalInfo(user);

    await uploadLicence(user);

    await expectToast('OCR Failed', 'The image reader is busy. Please try again in a moment.');
    expect(continueButton()).toBeEnabled();
  });

  it('passes a live face, saves with consent, shows the signed QR code and Finish goes to /', async () => {
    const { user } = setUp();
    const saved: SelfOnboardingBody[] = [];
    const reference = `BGD1.${crypto.randomUUID()}.${crypto.randomUUID()}.AAAAAAAAAAAAAAAAAAAAAA`;
    server.use(
      http.post<never, SelfOnboardingBody, SelfOnboarded>(
        '/api/onboarding/self',
        async ({ request }) => {
          saved.push(await request.json());
          return HttpResponse.json(
            {
              driver: {
                id: crypto.randomUUID(),
                name: 'Sipho',
                surname: 'Dlamini',
                idNumber: '8001015009087',
                phone: '0821234567',
                licenceNumber: null,
                licenceValidTo: null,
                transportCompany: null,
                photo: '/api/images/t/driver-photos/x.jpg',
                licenceImage: '/api/images/t/drivers-licences/y.jpg',
                livenessConfidence: 0.9,
                source: 'self',
                createdAt: new Date().toISOString(),
              },
              reference,
            },
            { status: 201 },
          );
        },
      ),
    );
    await fillPersonalInfo(user);
    await uploadLicence(user);
    await user.click(continueButton());
    await screen.findByRole('heading', { level: 2, name: 'Face Verification' });
    expect(continueButton()).toBeDisabled();

    await startLiveness(user);
    expect(await livenessEnd()).toBe('passed');

    expect(screen.getByText('Liveness verified')).toBeInTheDocument();
    const confidence = /Confidence (\d+)%/.exec(
      screen.getByText(/^Confidence \d+%/).textContent ?? '',
    );
    expect(Number(confidence?.[1])).toBeGreaterThan(50);
    expect(
      screen.getByRole('img', { name: 'Your selfie, taken during the liveness check' }),
    ).toHaveAttribute('src', 'data:image/jpeg;base64,c2VsZmll');
    expect(continueButton()).toBeEnabled();

    await user.click(continueButton());
    expect(await screen.findByRole('heading', { level: 2, name: 'Complete' })).toBeInTheDocument();
    expect(screen.getByText('Sipho Dlamini')).toBeInTheDocument();
    expect(screen.getByText(`Verified (confidence ${confidence?.[1]}%)`)).toBeInTheDocument();

    const complete = screen.getByRole('button', { name: 'Complete Registration' });
    expect(complete).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Finish' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /keeps my selfie/ }));
    await user.click(complete);

    expect(await screen.findByText('You are registered')).toBeInTheDocument();
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      name: 'Sipho',
      surname: 'Dlamini',
      idNumber: '8001015009087',
      selfie: 'data:image/jpeg;base64,c2VsZmll',
      licencePhoto: expect.stringMatching(/^data:image\//),
      biometricConsent: true,
    });
    // The four prompts' captures go to the server, which judges them; no confidence is claimed.
    expect(saved[0]?.livenessFrames).toEqual({
      look: expect.stringMatching(/^data:image\/jpeg;base64,frame-\d+$/),
      blink: expect.stringMatching(/^data:image\/jpeg;base64,frame-\d+$/),
      turn_left: expect.stringMatching(/^data:image\/jpeg;base64,frame-\d+$/),
      turn_right: expect.stringMatching(/^data:image\/jpeg;base64,frame-\d+$/),
    });
    expect(new Set(Object.values(saved[0]?.livenessFrames ?? {})).size).toBe(4);
    expect(saved[0]).not.toHaveProperty('livenessConfidence');

    await user.click(screen.getByRole('button', { name: 'Generate QR Code' }));
    const qr = await screen.findByRole('img', { name: 'Your driver QR code' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(qr.getAttribute('data-qr-text')).toBe(reference);

    await user.click(screen.getByRole('button', { name: 'Finish' }));
    await waitFor(() => expect(currentPath()).toBe('/'));
  });

  it('says why the registration was not saved and keeps the driver on the step', async () => {
    const { user } = setUp();
    server.use(
      http.post('/api/onboarding/self', () =>
        apiError(
          409,
          'CONFLICT',
          'You are already registered: a driver with this ID number exists.',
        ),
      ),
    );
    await fillPersonalInfo(user);
    await uploadLicence(user);
    await user.click(continueButton());
    await screen.findByRole('heading', { level: 2, name: 'Face Verification' });
    await startLiveness(user);
    expect(await livenessEnd()).toBe('passed');
    await user.click(continueButton());
    await screen.findByRole('heading', { level: 2, name: 'Complete' });
    await user.click(screen.getByRole('checkbox', { name: /keeps my selfie/ }));
    await user.click(screen.getByRole('button', { name: 'Complete Registration' }));

    await expectToast(
      'Registration Failed',
      'You are already registered: a driver with this ID number exists.',
    );
    expect(screen.queryByText('You are registered')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Complete Registration' })).toBeEnabled();
  });

  it('fails a still photo with a clear message, then passes on Try Again with a live face', async () => {
    const { user } = setUp();
    await fillPersonalInfo(user);
    await uploadLicence(user);
    await user.click(continueButton());
    await screen.findByRole('heading', { level: 2, name: 'Face Verification' });

    useScript(() => ({}), { isNoisy: false });
    await startLiveness(user);
    expect(await livenessEnd()).toBe('failed');

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Liveness check failed');
    expect(alert).toHaveTextContent('This looks like a photo, not a live face');
    const prompts = within(screen.getByRole('list', { name: 'Liveness prompts' }));
    expect(prompts.getByText('(seen)').parentElement).toHaveTextContent('Look at the camera');
    expect(prompts.getAllByText('(not seen)')).toHaveLength(3);
    expect(continueButton()).toBeDisabled();

    useScript(followsPrompts);
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await livenessEnd()).toBe('passed');
    expect(continueButton()).toBeEnabled();
  });

  it('names the movements it did not see', async () => {
    const { user } = setUp();
    await fillPersonalInfo(user);
    await uploadLicence(user);
    await user.click(continueButton());
    await screen.findByRole('heading', { level: 2, name: 'Face Verification' });

    useScript((fraction) => ({ ...followsPrompts(fraction), eyeOpen: 1 }));
    await startLiveness(user);
    expect(await livenessEnd()).toBe('failed');

    expect(screen.getByRole('alert')).toHaveTextContent('Not seen: blink.');
  });

  it('shows the camera error and keeps Continue disabled without a camera', async () => {
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: {
        getUserMedia: vi.fn(async () => {
          throw new DOMException('denied', 'NotAllowedError');
        }),
      },
    });
    const { user } = setUp();
    await fillPersonalInfo(user);
    await uploadLicence(user);
    await user.click(continueButton());
    await screen.findByRole('heading', { level: 2, name: 'Face Verification' });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Camera permission denied.');
    expect(screen.getByRole('button', { name: 'Start Liveness Check' })).toBeDisabled();
    expect(continueButton()).toBeDisabled();
  });
});
