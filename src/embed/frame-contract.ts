/**
 * What the service gives the map frame, apart from what the loader and the frame say to each other
 * (protocol.ts): the frame page's config, the public facts of a session, the grid table and the tile
 * layers of each style. It names no browser object, so the service, which writes all of it, compiles
 * it under Node's types alone; protocol.ts passes it on to the frame.
 */
import type { StyleName } from './style-names.ts';

/**
 * What the service writes into the frame page (`<script type="application/json" id="loc-config">`),
 * from the session the frame URL names.
 */
export interface FrameConfig {
  /** The service's public base URL, no trailing slash: the API and the frame's assets live below it. */
  apiBase: string;
  /** The session's origin: the only page allowed to embed the frame and to talk to it. */
  origin: string;
  /** The session id, the public part of the token. */
  sid: string;
  /** When the session expires (ISO 8601). */
  expiresAt: string;
  /** The service's clock when it wrote the page (ISO 8601): the frame times expiry by it, not by the visitor's clock. */
  now: string;
  /** The tile layers of every style. */
  styles: StyleLayers;
  /**
   * SHA-256 (hex) of the hash the service stores for the session's secret: the frame checks the token
   * it is given against it, before onReady, without a round trip. It reveals neither the secret nor
   * the stored hash.
   */
  tokenCheck: string;
  /**
   * Set when the service already refused the session as it wrote the page — its key disabled, its
   * account no longer a partner: the frame reports this at init instead of becoming ready.
   */
  refusal?: { code: 'key_inactive' | 'partner_required'; message: string };
  /**
   * Set when a test key (`loc_test_…`) made the session: the frame shows its "Test mode" badge, so that
   * nobody takes a test integration for a live one. Absent for live sessions.
   */
  testMode?: true;
  /**
   * The box the map keeps the view in (west greater than east crosses the antimeridian), when the
   * session has an area: its `bounds` (of `POST /v1/embed/sessions`); the box of its `countries`' borders,
   * padded by half a degree, when it has only countries; where the two overlap when it has both
   * (src/cells/session-area.ts, `viewBounds`). Absent when the session has no area, or countries so
   * far apart that their box would be most of the world. The countries themselves are not sent: the
   * service judges them at each choice, and the frame tells a refusal as any other.
   */
  bounds?: { south: number; west: number; north: number; east: number };
}

/** What `GET {apiBase}/embed/session/{sid}` answers (CORS `*`): the public facts of a session. */
export interface SessionInfo {
  origin: string;
  expires_at: string;
}

/** What `GET {apiBase}/embed/grid.json` answers: the frozen column count of every band, for drawing the grid. */
export interface GridData {
  /** Format version of the code (docs/code-format.md); the counts never change within a version. */
  format: number;
  /** Rows per band, `BLOCK_SIZE`. */
  rowsPerBand: number;
  /** `columns[band]` for every band, south to north (`BANDS` entries). */
  columns: number[];
}

/** One tile layer, as the frame hands it to Leaflet. */
export interface TileLayerConfig {
  /** URL template with `{z}`, `{x}`, `{y}`, and optionally `{s}` (a subdomain) and `{r}` (`@2x` on hi-dpi). */
  url: string;
  /** Attribution, HTML; shown in the map's corner. */
  attribution: string;
  /** Highest zoom the provider has tiles for; the map scales them up beyond it. */
  maxNativeZoom: number;
  /** Letters that replace `{s}`. */
  subdomains?: string;
  /**
   * What the tile server may learn of the frame's URL. Never more than the service's origin: the frame
   * URL names the session, and the token never appears in any URL at all.
   */
  referrerPolicy: 'no-referrer' | 'strict-origin';
  /** Drawn over the base layers (with this opacity) rather than under them. */
  overlay?: { opacity: number };
}

/** Every style's layers, bottom first. */
export type StyleLayers = Record<StyleName, TileLayerConfig[]>;
