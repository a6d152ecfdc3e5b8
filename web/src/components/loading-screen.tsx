import { Spinner } from './spinner';

/** docs/product.md §2: a Loading message while the session or a page loads. */
export function LoadingScreen() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center gap-3 text-muted" role="status">
      <Spinner />
      <span>Loading...</span>
    </div>
  );
}
