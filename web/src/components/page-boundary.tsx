import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { isMissingCodeError, recoverFromMissingCode } from '../lib/new-version';
import { Button } from './button';
import { Card } from './card';
import { NewVersionInPlace } from './new-version-notice';

interface BoundaryProps {
  children: ReactNode;
  /** The page's address: an error is forgotten when the person goes elsewhere. */
  resetKey: string;
  /** `none`: a part of the page that may be missing (the call widget) shows nothing in its place. */
  fallback: 'page' | 'none';
}

class Boundary extends Component<BoundaryProps, { error: unknown }> {
  override state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    if (isMissingCodeError(error)) recoverFromMissingCode();
  }

  override componentDidUpdate(previous: BoundaryProps) {
    if (previous.resetKey !== this.props.resetKey && this.state.error !== null) this.setState({ error: null });
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (this.props.fallback === 'none') return null;
    return isMissingCodeError(error) ? <NewVersionInPlace /> : <PageFailed />;
  }
}

function PageFailed() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Card className="w-full max-w-md text-center" role="alert">
        <h2 className="text-lg font-bold text-fg">This page could not be shown</h2>
        <p className="mt-2 text-sm text-muted">Something went wrong on this page. Reload it, or choose another page.</p>
        <Button className="mt-5" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </Card>
    </div>
  );
}

/**
 * Around the routes' pages (and the shell's lazy parts): a page that fails, its code missing after a
 * release above all, shows why in its place, and never unmounts the app to a blank screen
 * (docs/product.md: A new version while a tab is open).
 */
export function PageBoundary({ children, fallback = 'page' }: { children: ReactNode; fallback?: 'page' | 'none' }) {
  const { pathname } = useLocation();
  return (
    <Boundary resetKey={pathname} fallback={fallback}>
      {children}
    </Boundary>
  );
}
