import { Component, type ErrorInfo, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { i18next } from '@/lib/i18n';

type State = { error: Error | null };

/** Last line of defence: a render error (or a chunk that failed to load) shows a way out. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Unhandled render error', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;

    return (
      <div
        role="alert"
        className="flex min-h-svh flex-col items-center justify-center gap-4 p-6 text-center"
      >
        {/* A class component (React has no hook for error boundaries): i18next directly. */}
        <h1 className="text-2xl font-bold">{i18next.t('shared:errorBoundary.title')}</h1>
        <p className="max-w-md text-muted-foreground">
          {i18next.t('shared:errorBoundary.description')}
        </p>
        <Button onClick={() => window.location.reload()}>
          {i18next.t('shared:errorBoundary.reload')}
        </Button>
      </div>
    );
  }
}
