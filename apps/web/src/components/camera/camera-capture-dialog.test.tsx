import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { Toaster } from '@/components/ui/toaster';
import { CAMERA_ERRORS } from '@/hooks/use-camera-stream';
import { i18next } from '@/lib/i18n';
import { aJpegFile, installFakeCamera } from '@/testing/camera';
import { expectToast } from '@/testing/render-app';

import { CameraCaptureDialog, type CameraCaptureDialogProps } from './camera-capture-dialog';
import { captureFrame } from './capture-frame';

vi.mock('./capture-frame', () => ({
  captureFrame: vi.fn(() => 'data:image/jpeg;base64,Q0FQVFVSRUQ='),
}));

function renderCamera(props: Partial<CameraCaptureDialogProps> = {}) {
  const onClose = vi.fn();
  const onCapture = vi.fn();
  const user = userEvent.setup();
  const view = render(
    <>
      <CameraCaptureDialog
        open
        onClose={onClose}
        onCapture={onCapture}
        title="Scan Licence Plate"
        guide="wide"
        captureLabel="Capture plate"
        {...props}
      />
      <Toaster />
    </>,
  );
  return { ...view, user, onClose, onCapture };
}

const dialog = () => screen.getByRole('dialog', { name: 'Scan Licence Plate' });

describe('camera capture overlay', () => {
  it('opens the rear camera at 1920×1080 ideal by default and shows its preview', async () => {
    const camera = installFakeCamera();
    renderCamera();

    await waitFor(() => expect(camera.getUserMedia).toHaveBeenCalledTimes(1));
    expect(camera.getUserMedia).toHaveBeenCalledWith({
      audio: false,
      video: { facingMode: 'environment', width: { ideal: 1920 }, height: { ideal: 1080 } },
    });
    expect(within(dialog()).getByTestId('camera-preview')).toBeInTheDocument();
    expect(within(dialog()).getByLabelText('Upload Image')).toBeInTheDocument();
  });

  it('switches to the front camera and stops the rear one', async () => {
    const camera = installFakeCamera();
    const { user } = renderCamera();
    await waitFor(() => expect(camera.streams).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Switch to front camera' }));

    await waitFor(() => expect(camera.streams).toHaveLength(2));
    expect(camera.streams[1]!.constraints.video).toMatchObject({ facingMode: 'user' });
    expect(camera.streams[0]!.tracks[0]!.stop).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Switch to rear camera' })).toBeInTheDocument();
  });

  it("remembers the guard's last camera per step on this device (issue 19)", async () => {
    const camera = installFakeCamera();
    const first = renderCamera({ title: 'Capture Driver Face' });
    await waitFor(() => expect(camera.streams).toHaveLength(1));
    await first.user.click(screen.getByRole('button', { name: 'Switch to front camera' }));
    await waitFor(() => expect(camera.streams).toHaveLength(2));
    first.unmount();

    // The same step opens on the front camera next time; another step still on the rear one.
    const again = renderCamera({ title: 'Capture Driver Face' });
    await waitFor(() => expect(camera.streams).toHaveLength(3));
    expect(camera.streams[2]!.constraints.video).toMatchObject({ facingMode: 'user' });
    again.unmount();
    renderCamera({ title: 'Scan Licence Plate' });
    await waitFor(() => expect(camera.streams).toHaveLength(4));
    expect(camera.streams[3]!.constraints.video).toMatchObject({ facingMode: 'environment' });
  });

  it('can open on the front camera', async () => {
    const camera = installFakeCamera();
    renderCamera({ initialFacingMode: 'user' });
    await waitFor(() => expect(camera.streams).toHaveLength(1));
    expect(camera.streams[0]!.constraints.video).toMatchObject({ facingMode: 'user' });
  });

  it('stops every track and tells the caller when closed', async () => {
    const camera = installFakeCamera();
    const { user, onClose, rerender } = renderCamera();
    await waitFor(() => expect(camera.streams).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Close camera' }));

    expect(onClose).toHaveBeenCalledTimes(1);
    rerender(
      <CameraCaptureDialog
        open={false}
        onClose={onClose}
        onCapture={vi.fn()}
        title="Scan Licence Plate"
      />,
    );
    expect(camera.streams[0]!.tracks[0]!.stop).toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('captures a JPEG of the guide region once the camera shows a picture', async () => {
    installFakeCamera();
    const { user, onCapture } = renderCamera();
    const capture = screen.getByRole('button', { name: 'Capture plate' });
    expect(capture).toBeDisabled();

    const video = within(dialog()).getByTestId<HTMLVideoElement>('camera-preview');
    await waitFor(() => expect(video.srcObject).not.toBeNull());
    Object.defineProperty(video, 'videoWidth', { value: 1920 });
    Object.defineProperty(video, 'videoHeight', { value: 1080 });
    act(() => {
      fireEvent.loadedMetadata(video);
    });
    await user.click(capture);

    expect(captureFrame).toHaveBeenCalledWith(video, null);
    expect(onCapture).toHaveBeenCalledWith('data:image/jpeg;base64,Q0FQVFVSRUQ=');
  });

  it.each([
    ['NotAllowedError', CAMERA_ERRORS.permissionDenied],
    ['NotFoundError', CAMERA_ERRORS.noCamera],
    ['OverconstrainedError', CAMERA_ERRORS.noCamera],
    ['NotReadableError', CAMERA_ERRORS.unavailable],
    ['TypeError', CAMERA_ERRORS.failed],
  ])('shows %s in an alert over the camera, with upload still there', async (name, message) => {
    installFakeCamera({ error: new DOMException('denied', name) });
    renderCamera();

    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(message);
    expect(within(dialog()).getByLabelText('Upload Image')).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Capture plate' })).toBeDisabled();
  });

  it('speaks the chosen language: the camera error, upload, switch and close', async () => {
    await i18next.changeLanguage('zu');
    installFakeCamera({ error: new DOMException('denied', 'NotAllowedError') });
    renderCamera({ captureLabel: undefined });

    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
      'Imvume yekhamera yenqatshiwe.',
    );
    expect(within(dialog()).getByLabelText('Layisha Isithombe')).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Thatha' })).toBeDisabled();
    expect(
      screen.getByRole('button', { name: 'Shintshela kukhamera yangaphambili' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Vala ikhamera' })).toBeInTheDocument();
  });

  it('says the browser has no camera support when getUserMedia is missing', async () => {
    renderCamera();
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
      'Camera access not supported on this browser. Please use a modern browser or upload an image instead.',
    );
  });

  it('passes an uploaded image on as a data URL', async () => {
    const { user, onCapture } = renderCamera();

    await user.upload(within(dialog()).getByLabelText('Upload Image'), aJpegFile('plate.jpg'));

    await waitFor(() =>
      expect(onCapture).toHaveBeenCalledWith(expect.stringMatching(/^data:image\/jpeg;base64,/)),
    );
  });

  it("refuses an image over 10MB with 'Image Too Large'", async () => {
    const { user, onCapture } = renderCamera();

    await user.upload(
      within(dialog()).getByLabelText('Upload Image'),
      aJpegFile('huge.jpg', 10_485_761),
    );

    await expectToast('Image Too Large', 'Please upload an image smaller than 10MB.');
    expect(onCapture).not.toHaveBeenCalled();
  });

  it('refuses a file that is not png, jpg or webp', async () => {
    const { onCapture } = renderCamera();

    fireEvent.change(within(dialog()).getByLabelText('Upload Image'), {
      target: { files: [new File(['GIF89a'], 'a.gif', { type: 'image/gif' })] },
    });

    await expectToast('Unsupported Image', 'Please upload a PNG, JPG or WebP image.');
    expect(onCapture).not.toHaveBeenCalled();
  });

  it("keeps toasts between the overlay's title bar and its controls, and back in place after", async () => {
    // jsdom has no layout: the title bar ends 76 px down, the controls start 96 px from the
    // bottom of an 844 px window (as measured in Chromium at 390×844).
    const windowHeight = window.innerHeight;
    window.innerHeight = 844;
    const boxes: Record<string, DOMRectInit> = {
      'camera-title-bar': { x: 0, y: 0, width: 390, height: 76 },
      'camera-controls': { x: 0, y: 748, width: 390, height: 96 },
    };
    const measure = vi
      .spyOn(HTMLElement.prototype, 'getBoundingClientRect')
      .mockImplementation(function (this: HTMLElement) {
        return DOMRect.fromRect(boxes[this.dataset.testid ?? '']);
      });
    try {
      const { rerender, onClose, onCapture } = renderCamera();
      fireEvent.change(within(dialog()).getByLabelText('Upload Image'), {
        target: { files: [new File(['GIF89a'], 'a.gif', { type: 'image/gif' })] },
      });
      await expectToast('Unsupported Image');

      const viewport = screen.getByTestId('toast-viewport');
      expect(viewport.style.top).toBe('76px');
      expect(viewport.style.bottom).toBe('96px');

      rerender(
        <>
          <CameraCaptureDialog
            open={false}
            onClose={onClose}
            onCapture={onCapture}
            title="Scan Licence Plate"
          />
          <Toaster />
        </>,
      );
      await waitFor(() => expect(screen.getByTestId('toast-viewport').style.top).toBe(''));
      expect(screen.getByTestId('toast-viewport').style.bottom).toBe('');
    } finally {
      measure.mockRestore();
      window.innerHeight = windowHeight;
    }
  });
});
