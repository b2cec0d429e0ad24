import { useCameraOverlayInsets } from '@/components/camera/camera-overlay-insets';
import { dismissToast, useToasts } from '@/hooks/use-toast';

import {
  Toast,
  ToastClose,
  ToastDescription,
  ToastProvider,
  ToastTitle,
  ToastViewport,
} from './toast';

export function Toaster() {
  const toasts = useToasts();
  // Over a camera overlay, toasts sit between its title bar and its controls (never on them).
  const camera = useCameraOverlayInsets();

  return (
    <ToastProvider>
      {toasts.map(({ id, title, description, action, open, ...props }) => (
        <Toast
          key={id}
          open={open}
          onOpenChange={(isOpen) => {
            if (!isOpen) dismissToast(id);
          }}
          {...props}
        >
          <div className="grid gap-1">
            {title && <ToastTitle>{title}</ToastTitle>}
            {description && <ToastDescription>{description}</ToastDescription>}
          </div>
          {action}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport
        data-testid="toast-viewport"
        style={
          camera
            ? { top: camera.top, bottom: camera.bottom, maxHeight: 'none', height: 'auto' }
            : undefined
        }
      />
    </ToastProvider>
  );
}
