/**
 * How long browsers and CloudFront keep the SPA's files, one definition for the upload (infra/) and the
 * local server of the built app (local/web.ts), so an open tab meets a release as it would in AWS
 * (docs/deploy.md: Releases and open tabs).
 */

/** The build's folder of files whose names carry a hash of their content (Vite's `build.assetsDir`). */
export const HASHED_ASSETS_DIR = 'assets';

/** A hashed file never changes under its name: kept a year, never asked again. */
export const HASHED_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * `index.html` (every route of the app) and the other unhashed files: asked again each time, so a tab
 * opened or reloaded after a release gets the release's entry, never a cached one naming old chunks.
 */
export const PAGE_CACHE_CONTROL = 'no-cache';

/** Whether a request path names a file of the hashed folder. */
export const isHashedAsset = (pathname: string) => pathname.startsWith(`/${HASHED_ASSETS_DIR}/`);

/** The Cache-Control of a file of the build, by its path. */
export const cacheControlFor = (pathname: string) => (isHashedAsset(pathname) ? HASHED_ASSET_CACHE_CONTROL : PAGE_CACHE_CONTROL);
